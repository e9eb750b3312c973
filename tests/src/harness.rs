//! The conformance harness shared by the smooth and constraint suites: manifests of models,
//! running them under mjref's control law, and comparing with the reference fixtures
//! (`fixtures/generate-conformance.sh`).

use crate::{compare, fixtures, read_json, Report};
use serde_json::Value;
use std::path::PathBuf;

/// A model of a manifest: fixture name and keyframe.
pub struct Case {
    /// Fixture name.
    pub name: String,
    /// Keyframe to start from.
    pub key: Option<i32>,
}

/// A family of fixtures: manifests `fixtures/{prefix}*.txt`, files in `fixtures/{dir}/`.
pub struct Suite {
    /// Manifest name prefix (`smooth-models`).
    pub prefix: &'static str,
    /// Fixture folder (`smooth`).
    pub dir: &'static str,
}

/// One recorded step of mjrs: time, qpos, qvel, act, sensordata.
pub type Record = (f64, Vec<f64>, Vec<f64>, Vec<f64>, Vec<f64>);

impl Suite {
    /// The models of every manifest of the suite (one manifest per area, so that areas add
    /// models independently).
    pub fn cases(&self) -> Vec<Case> {
        let mut manifests: Vec<PathBuf> = std::fs::read_dir(fixtures())
            .unwrap()
            .filter_map(|e| Some(e.ok()?.path()))
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with(self.prefix) && n.ends_with(".txt"))
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

    /// Path of fixture `name.ext`.
    pub fn path(&self, name: &str, ext: &str) -> PathBuf {
        fixtures().join(self.dir).join(format!("{name}.{ext}"))
    }

    /// For every case: the case, the reference's Data and the comparison of mjrs's Data with
    /// it after 20 control steps and a forward pass (every field).
    pub fn data_reports(&self) -> Vec<(Case, Value, Report)> {
        self.cases()
            .into_iter()
            .map(|case| {
                let blob = std::fs::read(self.path(&case.name, "mjb")).unwrap();
                let (_, ours) = crate::simulate!(mjrs_core, blob, case.key, 20, |m, d| {
                    mjrs_core::forward(&m, d).unwrap();
                    serde_json::from_str::<Value>(&mjrs::dump::data_json(&m, d)).unwrap()
                });
                let reference = read_json(&self.path(&case.name, "data.json"));
                let report = compare(&reference, &ours);
                (case, reference, report)
            })
            .collect()
    }

    /// For every case, compares mjrs's Data after 20 control steps and a forward pass with the
    /// reference's, on the fields `keep` selects; returns the failures as text.
    pub fn data_failures(&self, keep: impl Fn(&str, &Case) -> bool, tol: f64) -> Vec<String> {
        let mut failures = Vec::new();
        for (case, _, mut report) in self.data_reports() {
            report.retain(|f| keep(f, &case));
            if !report.is_match(tol) {
                failures.push(format!("{}:\n{}", case.name, report.summary(tol)));
            }
        }
        failures
    }

    /// The reference trajectory of `name`: recording interval, times, and per record qpos,
    /// qvel, act and sensordata.
    pub fn reference_traj(&self, name: &str) -> (usize, Vec<f64>, [Vec<Vec<f64>>; 4]) {
        let t = read_json(&self.path(name, "traj.json"));
        let every = t["every"].as_u64().unwrap() as usize;
        let nums = |v: &Value| -> Vec<f64> {
            v.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap_or(f64::NAN))
                .collect()
        };
        let rows =
            |k: &str| -> Vec<Vec<f64>> { t[k].as_array().unwrap().iter().map(nums).collect() };
        (
            every,
            nums(&t["time"]),
            [rows("qpos"), rows("qvel"), rows("act"), rows("sensordata")],
        )
    }

    /// Compiles every model of the manifest `fixtures/{prefix}.txt` (its second column, an XML
    /// under tests/models) and checks it with [`Suite::check_compiled_model`]: (models, fields
    /// compared, contacts summed over the steps).
    pub fn check_compiled_models(&self) -> (usize, usize, usize) {
        let models = fixtures().join("../models");
        let manifest = fixtures().join(format!("{}.txt", self.prefix));
        let text = std::fs::read_to_string(manifest).unwrap();
        let (mut n, mut fields, mut contacts) = (0, 0, 0);
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let c: Vec<&str> = line.split_whitespace().collect();
            let (k, con) = self.check_compiled_model(c[0], &models.join(c[1]), None);
            (n, fields, contacts) = (n + 1, fields + k, contacts + con);
        }
        (n, fields, contacts)
    }

    /// Compiles `xml` with mjrs, asserts the result equals MuJoCo's MJB of fixture `name` field
    /// by field and, from keyframe `key` if given, follows MuJoCo's recorded time, qpos and qvel
    /// bit for bit over 1000 steps of the control law: (fields compared, contacts summed over
    /// the steps).
    pub fn check_compiled_model(
        &self,
        name: &str,
        xml: &std::path::Path,
        key: Option<i32>,
    ) -> (usize, usize) {
        let mut ours = mjrs_xml::load_xml(xml, None)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .model;
        let blob = std::fs::read(self.path(name, "mjb")).unwrap();
        let mut reference = mjrs_alloc::OwnedModel::from_mjb(&blob).unwrap();
        let (diffs, fields) = crate::model_diff::differences(&reference.view(), &ours.view());
        assert!(diffs.is_empty(), "{name}: {} fields differ", diffs.len());

        let m = ours.view();
        let mut data = mjrs_std::OwnedData::new(&m).unwrap();
        let mut d = data.view();
        if let Some(key) = key {
            mjrs_core::io::reset_data_keyframe(&m, &mut d, key);
        }
        let (every, time, [qpos, qvel, _, _]) = self.reference_traj(name);
        let mut contacts = 0;
        for step in 1..=1000 {
            mjrs::control::sine(&m, &mut d);
            mjrs_core::step(&m, &mut d).unwrap();
            contacts += d.ncon;
            if step % every == 0 {
                let row = step / every - 1;
                assert_eq!(d.time, time[row], "{name} step {step}");
                assert_eq!(d.qpos.to_vec(), qpos[row], "{name} step {step}");
                assert_eq!(d.qvel.to_vec(), qvel[row], "{name} step {step}");
            }
        }
        (fields, contacts)
    }

    /// For every case, runs 1000 steps and compares time, qpos, qvel, act (to `tol`) and
    /// sensordata (to `sensor_tol`) at the reference's records; prints the largest differences.
    pub fn traj_failures(&self, tol: f64, sensor_tol: f64) -> Vec<String> {
        let mut failures = Vec::new();
        for case in self.cases() {
            let blob = std::fs::read(self.path(&case.name, "mjb")).unwrap();
            let (every, time, [qpos, qvel, act, sensordata]) = self.reference_traj(&case.name);
            let (run, ()) = crate::simulate!(mjrs_core, blob, case.key, 1000, |m, d| ());
            let rec: Vec<_> = run.iter().skip(every - 1).step_by(every).collect();
            assert_eq!(rec.len(), time.len(), "{}", case.name);
            let pick = |f: fn(&Record) -> Vec<f64>| -> Vec<Vec<f64>> {
                rec.iter().map(|r| f(r)).collect()
            };
            let times: Vec<Vec<f64>> = time.iter().map(|&t| vec![t]).collect();
            let diffs = [
                ("time", max_diff(&pick(|r| vec![r.0]), &times)),
                ("qpos", max_diff(&pick(|r| r.1.clone()), &qpos)),
                ("qvel", max_diff(&pick(|r| r.2.clone()), &qvel)),
                ("act", max_diff(&pick(|r| r.3.clone()), &act)),
                ("sensordata", max_diff(&pick(|r| r.4.clone()), &sensordata)),
            ];
            let row: Vec<String> = diffs.iter().map(|(n, d)| format!("{n} {d:.1e}")).collect();
            println!("{:<28} {}", case.name, row.join("  "));
            for (n, d) in diffs {
                let t = if n == "sensordata" { sensor_tol } else { tol };
                if d.is_nan() || d > t {
                    failures.push(format!("{}: {n} differs by {d:e}", case.name));
                }
            }
        }
        failures
    }

    /// For every case, runs the f32 build for 100 steps and compares qpos, qvel and act with
    /// the reference's records to `tol`.
    pub fn f32_failures(&self, tol: f64) -> Vec<String> {
        let mut failures = Vec::new();
        for case in self.cases() {
            let blob = std::fs::read(self.path(&case.name, "mjb")).unwrap();
            let (every, _, [qpos, qvel, act, _]) = self.reference_traj(&case.name);
            let (run, ()) = crate::simulate!(mjrs_core_f32, blob, case.key, 100, |m, d| ());
            let widen = |v: &Vec<f32>| -> Vec<f64> { v.iter().map(|&x| f64::from(x)).collect() };
            for (k, rec) in run.iter().enumerate().skip(every - 1).step_by(every) {
                let row = (k + 1) / every - 1;
                for (n, ours, reference) in [
                    ("qpos", &rec.1, &qpos[row]),
                    ("qvel", &rec.2, &qvel[row]),
                    ("act", &rec.3, &act[row]),
                ] {
                    let d = max_diff(&[widen(ours)], std::slice::from_ref(reference));
                    if d.is_nan() || d > tol {
                        failures.push(format!(
                            "{} step {}: f32 {n} differs by {d:e}",
                            case.name,
                            k + 1
                        ));
                    }
                }
            }
        }
        failures
    }
}

/// Largest mixed (absolute below 1, relative above) difference over the recorded steps.
pub fn max_diff(ours: &[Vec<f64>], reference: &[Vec<f64>]) -> f64 {
    ours.iter()
        .zip(reference)
        .flat_map(|(a, b)| {
            a.iter()
                .zip(b)
                .map(|(x, y)| (x - y).abs() / y.abs().max(1.0))
        })
        .fold(0.0, f64::max)
}

/// Runs `$steps` steps of mjref's control law on an MJB blob with the core crate `$core`
/// (`mjrs_core` or `mjrs_core_f32`), from keyframe `$key`; records time, qpos, qvel, act and
/// sensordata after each step, then evaluates `$after` with the model and data.
#[macro_export]
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
