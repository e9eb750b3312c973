//! Conformance helpers: compare a JSON dump of the reference (`mjref model|data|traj`, MuJoCo
//! 3.1.6) with mjrs's dump of the same thing, field by field.
//!
//! [`compare`] reports, per field, the largest absolute and relative difference, plus the fields
//! missing from mjrs's dump and the extra ones. Nested objects (`contact`, `warning`) are compared
//! per member (`contact.dist`), nested lists (trajectories) are flattened.

pub mod harness;
pub mod model_diff;
pub mod sha256;

use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// Keys that describe a dump rather than the model or data.
const META: &[&str] = &["mujoco_version", "mjrs_version", "shapes"];

/// Differences in one field.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldDiff {
    /// Field name (`qpos`, `opt.gravity`, `contact.dist`).
    pub name: String,
    /// Largest `|ref - ours|` over the elements (0 when identical; infinite when one side is
    /// NaN or the values are not comparable).
    pub max_abs: f64,
    /// Largest `|ref - ours| / max(|ref|, |ours|)`.
    pub max_rel: f64,
    /// Largest `|ref - ours| / max(1, |ref|)`: absolute below 1, relative above, as MuJoCo's
    /// own test fixture compares.
    pub max_mixed: f64,
    /// Index of the element with the largest mixed difference.
    pub worst_index: usize,
    /// Element counts (reference, ours) when they differ.
    pub len_mismatch: Option<(usize, usize)>,
}

/// The result of comparing two dumps.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Every field present in both dumps, in name order.
    pub fields: Vec<FieldDiff>,
    /// Fields of the reference that mjrs's dump lacks.
    pub missing: Vec<String>,
    /// Fields of mjrs's dump that the reference lacks.
    pub extra: Vec<String>,
    /// Fields whose shapes differ: (name, reference shape, ours).
    pub shape_mismatch: Vec<(String, Value, Value)>,
}

impl Report {
    /// Fields whose mixed difference exceeds `tol` or whose lengths differ.
    pub fn failures(&self, tol: f64) -> Vec<&FieldDiff> {
        self.fields
            .iter()
            .filter(|f| f.len_mismatch.is_some() || f.max_mixed > tol)
            .collect()
    }

    /// The field with the largest mixed difference.
    pub fn worst(&self) -> Option<&FieldDiff> {
        self.fields
            .iter()
            .max_by(|a, b| a.max_mixed.total_cmp(&b.max_mixed))
    }

    /// Whether everything matches within `tol` with no missing, extra or reshaped fields.
    pub fn is_match(&self, tol: f64) -> bool {
        self.missing.is_empty()
            && self.extra.is_empty()
            && self.shape_mismatch.is_empty()
            && self.failures(tol).is_empty()
    }

    /// Keeps only the fields for which `keep(name)` holds (missing and extra included).
    pub fn retain(&mut self, keep: impl Fn(&str) -> bool) {
        self.fields.retain(|f| keep(&f.name));
        self.missing.retain(|n| keep(n));
        self.extra.retain(|n| keep(n));
        self.shape_mismatch.retain(|(n, _, _)| keep(n));
    }

    /// Panics with a readable table unless [`Report::is_match`] holds.
    pub fn assert_match(&self, tol: f64, what: &str) {
        if !self.is_match(tol) {
            panic!("{what}: mismatch beyond {tol:e}\n{}", self.summary(tol));
        }
    }

    /// The failing fields, missing, extra and reshaped fields, as text.
    pub fn summary(&self, tol: f64) -> String {
        let mut s = String::new();
        for f in self.failures(tol) {
            s += &format!(
                "  {:<24} max_abs {:.3e} max_rel {:.3e} at [{}]{}\n",
                f.name,
                f.max_abs,
                f.max_rel,
                f.worst_index,
                f.len_mismatch
                    .map(|(a, b)| format!(" LENGTH {a} vs {b}"))
                    .unwrap_or_default()
            );
        }
        if !self.missing.is_empty() {
            s += &format!("  missing: {:?}\n", self.missing);
        }
        if !self.extra.is_empty() {
            s += &format!("  extra: {:?}\n", self.extra);
        }
        for (n, a, b) in &self.shape_mismatch {
            s += &format!("  shape of {n}: {a} vs {b}\n");
        }
        s
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{:<28} {:>12} {:>12}", "field", "max_abs", "max_rel")?;
        for d in &self.fields {
            writeln!(
                f,
                "{:<28} {:>12.3e} {:>12.3e}",
                d.name, d.max_abs, d.max_rel
            )?;
        }
        write!(f, "{}", self.summary(0.0))
    }
}

/// A JSON value as a flat list of numbers; strings are the reference's "nan"/"inf"/"-inf".
/// Returns `None` for values that are not numeric (such as the `names` string).
fn numbers(v: &Value, out: &mut Vec<f64>) -> Option<()> {
    match v {
        Value::Number(n) => out.push(n.as_f64()?),
        Value::String(s) => out.push(match s.as_str() {
            "nan" => f64::NAN,
            "inf" => f64::INFINITY,
            "-inf" => f64::NEG_INFINITY,
            _ => return None,
        }),
        Value::Array(a) => {
            for x in a {
                numbers(x, out)?;
            }
        }
        Value::Bool(b) => out.push(f64::from(u8::from(*b))),
        _ => return None,
    }
    Some(())
}

fn diff_values(name: String, a: &Value, b: &Value) -> FieldDiff {
    let (mut x, mut y) = (Vec::new(), Vec::new());
    let mut d = FieldDiff {
        name,
        max_abs: 0.0,
        max_rel: 0.0,
        max_mixed: 0.0,
        worst_index: 0,
        len_mismatch: None,
    };
    if numbers(a, &mut x).is_none() || numbers(b, &mut y).is_none() {
        if a != b {
            d.max_abs = f64::INFINITY;
            d.max_rel = f64::INFINITY;
            d.max_mixed = f64::INFINITY;
        }
        return d;
    }
    if x.len() != y.len() {
        d.len_mismatch = Some((x.len(), y.len()));
    }
    for (i, (&p, &q)) in x.iter().zip(&y).enumerate() {
        let (abs, rel, mixed) = if p.to_bits() == q.to_bits() || (p.is_nan() && q.is_nan()) {
            (0.0, 0.0, 0.0)
        } else if p.is_finite() && q.is_finite() {
            let abs = (p - q).abs();
            (abs, abs / p.abs().max(q.abs()), abs / p.abs().max(1.0))
        } else {
            (f64::INFINITY, f64::INFINITY, f64::INFINITY)
        };
        d.max_abs = d.max_abs.max(abs);
        d.max_rel = d.max_rel.max(rel);
        if mixed > d.max_mixed {
            d.max_mixed = mixed;
            d.worst_index = i;
        }
    }
    d
}

/// Flattens nested objects (`contact`, `warning`) into `parent.member` entries.
fn flatten(v: &Value) -> BTreeMap<String, &Value> {
    let mut out = BTreeMap::new();
    if let Value::Object(map) = v {
        for (k, x) in map {
            if META.contains(&k.as_str()) {
                continue;
            }
            match x {
                Value::Object(inner) => {
                    for (ik, iv) in inner {
                        out.insert(format!("{k}.{ik}"), iv);
                    }
                    if inner.is_empty() {
                        out.insert(k.clone(), x);
                    }
                }
                _ => {
                    out.insert(k.clone(), x);
                }
            }
        }
    }
    out
}

/// Compares a reference dump with mjrs's dump of the same model or data.
pub fn compare(reference: &Value, ours: &Value) -> Report {
    let (a, b) = (flatten(reference), flatten(ours));
    let mut r = Report::default();
    for (k, va) in &a {
        match b.get(k) {
            Some(vb) => r.fields.push(diff_values(k.clone(), va, vb)),
            None => r.missing.push(k.clone()),
        }
    }
    r.extra = b.keys().filter(|k| !a.contains_key(*k)).cloned().collect();
    if let (Some(Value::Object(sa)), Some(Value::Object(sb))) =
        (reference.get("shapes"), ours.get("shapes"))
    {
        for (k, va) in sa {
            if let Some(vb) = sb.get(k) {
                if va != vb {
                    r.shape_mismatch.push((k.clone(), va.clone(), vb.clone()));
                }
            }
        }
    }
    r
}

/// Reads a JSON file.
pub fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// MJB fixtures of models with contacts under several solvers and cones (PGS and Newton,
/// pyramidal and elliptic, dense and sparse), for tests that compare two ways of stepping.
pub const CONTACT_SOLVER_MJBS: [&str; 6] = [
    "deriv/humanoid.mjb",
    "deriv/ant.mjb",
    "deriv/hopper.mjb",
    "inverse/solver_humanoid_newton_elliptic_sparse.mjb",
    "inverse/rows_contacts_elliptic.mjb",
    "inverse/solver_contacts_pgs_elliptic.mjb",
];

/// A model of `tests/models` compiled (panics naming the file when it does not compile).
pub fn compile_model(xml: &str) -> mjrs_alloc::OwnedModel {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("models")
        .join(xml);
    mjrs_xml::load_xml(&path, None)
        .unwrap_or_else(|e| panic!("{xml}: {e}"))
        .model
}

/// The folder of committed fixtures (`tests/fixtures`).
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// Names of the fixture models that have an MJB file, sorted.
pub fn mjb_fixture_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(fixtures().join("mjb"))
        .expect("tests/fixtures/mjb")
        .filter_map(|e| {
            let p = e.ok()?.path();
            let stem = p.file_stem()?.to_string_lossy().into_owned();
            (p.extension()? == "mjb").then_some(stem)
        })
        .collect();
    names.sort();
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reports_differences_missing_and_extra() {
        let a = json!({"qpos": [1.0, 2.0, "nan"], "nq": 3, "gone": [1], "shapes": {"qpos": [3]}});
        let b = json!({"qpos": [1.0, 2.5, "nan"], "nq": 3, "new": 0, "shapes": {"qpos": [3]}});
        let r = compare(&a, &b);
        let q = r.fields.iter().find(|f| f.name == "qpos").unwrap();
        assert_eq!(q.max_abs, 0.5);
        assert_eq!(q.worst_index, 1);
        assert_eq!(r.missing, vec!["gone"]);
        assert_eq!(r.extra, vec!["new"]);
        assert!(!r.is_match(1e-9));
        assert_eq!(r.failures(1e-9).len(), 1);
    }

    #[test]
    fn nested_objects_and_lengths() {
        let a = json!({"contact": {"dist": [0.1]}, "x": [1, 2]});
        let b = json!({"contact": {"dist": [0.1]}, "x": [1]});
        let r = compare(&a, &b);
        assert!(r
            .fields
            .iter()
            .any(|f| f.name == "contact.dist" && f.max_abs == 0.0));
        assert_eq!(
            r.fields
                .iter()
                .find(|f| f.name == "x")
                .unwrap()
                .len_mismatch,
            Some((2, 1))
        );
    }

    #[test]
    fn identical_is_a_match() {
        let a = json!({"names": "a\u{0}b", "opt.timestep": 0.002, "inf": ["inf", "-inf"]});
        assert!(compare(&a, &a).is_match(0.0));
    }
}
