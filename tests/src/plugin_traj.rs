//! The first-party plugin fixtures (`fixtures/generate-plugin.py`): trajectories of MuJoCo 3.1.6
//! with its plugin libraries, every recorded number as its f64 bits, compared bit for bit with
//! mjrs running the same control law on a model (MuJoCo's MJB or mjrs's own compilation).

use crate::fixtures;
use crate::harness::Suite;
use mjrs_core::{io, mjb, Data, Model};
use serde_json::Value;
use std::path::PathBuf;

/// The fields the fixtures record, after `time`.
pub const FIELDS: [&str; 6] = [
    "qpos",
    "qvel",
    "act",
    "actuator_force",
    "sensordata",
    "plugin_state",
];

/// Rows of `plugin-models.txt` whose name starts with `prefix`: (name, XML under tests/models).
pub fn manifest(prefix: &str) -> Vec<(String, PathBuf)> {
    let text = std::fs::read_to_string(fixtures().join("plugin-models.txt")).unwrap();
    let models = fixtures().join("../models");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            (cols[0].to_string(), models.join(cols[1]))
        })
        .filter(|(n, _)| n.starts_with(prefix))
        .collect()
}

/// MuJoCo's MJB of fixture `name` (the first-party plugins registered first).
pub fn reference_mjb(name: &str) -> Vec<u8> {
    mjrs_alloc::register_first_party();
    std::fs::read(fixtures().join("plugin").join(format!("{name}.mjb"))).unwrap()
}

/// Loads an MJB blob into `buf` (sized here).
pub fn load<'a>(blob: &[u8], buf: &'a mut Vec<u8>) -> Model<'a> {
    mjrs_alloc::register_first_party();
    let header = mjb::read_header(blob).unwrap();
    buf.resize(header.model_bytes().unwrap(), 0);
    mjb::load(blob, buf).unwrap_or_else(|e| panic!("{e}"))
}

fn bits(v: &Value) -> u64 {
    u64::from_str_radix(v.as_str().unwrap(), 16).unwrap()
}

/// mjref's control law: a sine per actuator, spread over `ctrlrange` when limited.
pub fn control(m: &Model, d: &mut Data) {
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

/// Runs `m` as fixture `name` was recorded and returns (values compared, mismatches as text).
/// `during` sees the data after every step.
pub fn compare_trajectory(
    name: &str,
    m: &Model,
    mut during: impl FnMut(usize, &Data),
) -> (usize, Vec<String>) {
    let path = fixtures().join("plugin").join(format!("{name}.traj.json"));
    let traj: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = Data::new(m, &mut dbuf).unwrap();
    io::reset_data(m, &mut d);
    let steps = traj["steps"].as_u64().unwrap() as usize;
    let every = traj["every"].as_u64().unwrap() as usize;
    let rec = &traj["records"];
    let (mut compared, mut bad) = (0, Vec::new());
    for step in 1..=steps {
        control(m, &mut d);
        mjrs_core::step(m, &mut d).unwrap_or_else(|e| panic!("{name} step {step}: {e}"));
        during(step, &d);
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
                let theirs = f64::from_bits(bits(r));
                if o.to_bits() != theirs.to_bits() && !(o.is_nan() && theirs.is_nan()) {
                    bad.push(format!(
                        "{name} step {step}: {what}[{k}] = {o:e}, MuJoCo {theirs:e}"
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

/// MuJoCo's errors for `tests/models/plugin/bad/*.xml` by file name ("" when it loads).
pub fn reference_errors() -> Vec<(String, String)> {
    let path = fixtures().join("plugin").join("errors.json");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v.as_object()
        .unwrap()
        .iter()
        .map(|(k, e)| (k.clone(), e.as_str().unwrap().to_string()))
        .collect()
}

/// How much of MuJoCo's error text a refusal must repeat.
#[derive(Clone, Copy)]
pub enum Message {
    /// The first line (MuJoCo's `init` failures add the plugin's name on a second line).
    FirstLine,
    /// All of it (the plugin's own `mju_error`).
    Whole,
}

/// Compiles every bad-configuration model under `models/plugin/bad` whose file name starts
/// with `prefix` and asserts mjrs refuses it exactly when MuJoCo does, with MuJoCo's message;
/// returns how many were checked.
pub fn check_refusals(prefix: &str, message: Message) -> usize {
    mjrs_alloc::register_first_party();
    let dir = fixtures().join("../models/plugin/bad");
    let mut checked = 0;
    for (file, theirs) in reference_errors() {
        if !file.starts_with(prefix) {
            continue;
        }
        checked += 1;
        match mjrs_xml::load_xml(dir.join(&file), None) {
            Ok(_) => assert!(
                theirs.is_empty(),
                "{file}: compiles, MuJoCo says {theirs:?}"
            ),
            Err(e) => {
                let ours = e.to_string();
                assert!(
                    !theirs.is_empty(),
                    "{file}: refused ({ours:?}), MuJoCo loads it"
                );
                let cut = |s: &str| match message {
                    Message::FirstLine => s.lines().next().unwrap_or_default().to_string(),
                    Message::Whole => s.trim_end().to_string(),
                };
                assert_eq!(cut(&ours), cut(&theirs), "{file}");
            }
        }
    }
    checked
}

/// For every case of `suite`, compares mjrs's Data after 20 control steps and a forward pass
/// with MuJoCo's on the fields the fixture recorded (those plugins reach), bit for bit, and
/// asserts `required` was among them; returns how many fields were compared.
pub fn check_recorded_data(suite: &Suite, required: &str) -> usize {
    mjrs_alloc::register_first_party();
    let mut failures = Vec::new();
    let mut fields = 0;
    for (case, reference, mut report) in suite.data_reports() {
        report.retain(|f| reference.get(f.split('.').next().unwrap_or(f)).is_some());
        assert!(
            report.fields.iter().any(|f| f.name.starts_with(required)),
            "{}: {required} not compared",
            case.name
        );
        fields += report.fields.len();
        if !report.is_match(0.0) {
            failures.push(format!("{}:\n{}", case.name, report.summary(0.0)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    fields
}

/// Runs every model of the manifest whose names start with `prefix` (from MuJoCo's MJB, or
/// compiled by mjrs from its XML) and asserts its trajectory equals MuJoCo's bit for bit.
pub fn check_manifest(prefix: &str, compiled_by_mjrs: bool) {
    let mut failures = Vec::new();
    for (name, xml) in manifest(prefix) {
        let (n, bad) = if compiled_by_mjrs {
            let mut c = mjrs_xml::load_xml(&xml, None).unwrap_or_else(|e| panic!("{name}: {e}"));
            let m = c.model.view();
            compare_trajectory(&name, &m, |_, _| ())
        } else {
            let mut buf = Vec::new();
            compare_trajectory(&name, &load(&reference_mjb(&name), &mut buf), |_, _| ())
        };
        println!(
            "{name:<18} {n} values over 1000 steps, {} differ",
            bad.len()
        );
        assert!(n > 0, "{name}: nothing compared");
        failures.extend(bad.into_iter().take(5));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
