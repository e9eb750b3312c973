//! `mj_saveLastXML` of a changed model (`mjrs_xml::writer::copy_back`, MuJoCo's
//! `mjCModel::CopyBack`): `tests/models/copy_back.xml`, with objects of every kind MuJoCo copies
//! back (frames, classes, `fromto`, a mesh geom and a mesh fit, inferred and explicit inertia,
//! degrees), is changed as `fixtures/copy_back/edits.txt` says, saved and compiled again.
//!
//! * Against MuJoCo 3.1.6: its saved text of the same changes (`copy_back/mujoco_saved.xml`,
//!   from `generate-copy-back.py`), compiled by mjrs, gives the same model as ours within
//!   MuJoCo's six printed digits: the same values are saved, the same ones are not.
//! * Exactly: each changed value is the saved model's, bit for bit (mjrs prints 17 digits), but
//!   for the documented roundings.

use mjrs_core::layout::{ArrayVisitor, ArrayVisitorMut, Elem, FieldInfo, Scalar};
use mjrs_core::Model;
use mjrs_tests::{compare, fixtures};
use serde_json::Value;
use std::path::Path;

/// A change: the first values of row `row` of field `field` (`stat.NAME`: a statistic).
struct Edit {
    field: String,
    row: usize,
    values: Vec<f64>,
}

fn edits() -> Vec<Edit> {
    let text = std::fs::read_to_string(fixtures().join("copy_back/edits.txt")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            Edit {
                field: w[0].to_string(),
                row: w[1].parse().unwrap(),
                values: w[2..].iter().map(|v| v.parse().unwrap()).collect(),
            }
        })
        .collect()
}

/// Sets an edit's values (`ArrayVisitorMut`), or reads them back (`ArrayVisitor`).
struct Row<'a> {
    edit: &'a Edit,
    found: Option<Vec<f64>>,
}

impl ArrayVisitorMut for Row<'_> {
    fn array<T: Elem>(&mut self, info: &FieldInfo, data: &mut [T]) {
        if info.name == self.edit.field {
            let start = self.edit.row * info.cols;
            for (k, &v) in self.edit.values.iter().enumerate() {
                data[start + k] = T::from_scalar(Scalar::Real(v));
            }
            self.found = Some(Vec::new());
        }
    }
}

impl ArrayVisitor for Row<'_> {
    fn array<T: Elem>(&mut self, info: &FieldInfo, data: &[T]) {
        if info.name == self.edit.field {
            let start = self.edit.row * info.cols;
            let row = &data[start..start + self.edit.values.len()];
            self.found = Some(
                row.iter()
                    .map(|x| match x.to_scalar() {
                        Scalar::Int(i) => i as f64,
                        Scalar::Real(r) => r,
                    })
                    .collect(),
            );
        }
    }
}

fn stat<'a>(m: &'a mut mjrs_core::model::Statistic, name: &str) -> &'a mut f64 {
    match name {
        "stat.extent" => &mut m.extent,
        "stat.meansize" => &mut m.meansize,
        other => panic!("no statistic {other}"),
    }
}

fn apply(m: &mut Model, edit: &Edit) {
    if edit.field.starts_with("stat.") {
        *stat(&mut m.stat, &edit.field) = edit.values[0];
        return;
    }
    let mut row = Row { edit, found: None };
    m.visit_mut(&mut row);
    assert!(row.found.is_some(), "no field {}", edit.field);
}

fn read(m: &mut Model, edit: &Edit) -> Vec<f64> {
    if edit.field.starts_with("stat.") {
        return vec![*stat(&mut m.stat, &edit.field)];
    }
    let mut row = Row { edit, found: None };
    m.visit(&mut row);
    row.found.unwrap()
}

fn model_path() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("models/copy_back.xml")
        .to_string_lossy()
        .into_owned()
}

/// The model of `copy_back.xml` changed by the edits, saved by mjrs and compiled again; the
/// saved text.
fn saved(edits: &[Edit]) -> (mjrs_xml::Compilation, mjrs_xml::Compilation, String) {
    let file = model_path();
    let text = std::fs::read_to_string(&file).unwrap();
    let mut original = mjrs_xml::compile_str(&text, &file, "", None).unwrap();
    let mut changed = mjrs_xml::compile_str(&text, &file, "", None).unwrap();
    for e in edits {
        apply(&mut changed.model.view(), e);
    }
    let (mut spec, _) = mjrs_xml::parse_str(&text, &file, "", None).unwrap();
    mjrs_xml::writer::copy_back::copy_back(
        &mut spec,
        &original.model.view(),
        &changed.model.view(),
    )
    .unwrap();
    let written = mjrs_xml::writer::write_xml(&spec).unwrap();
    let again = mjrs_xml::compile_str(&written, &file, "", None)
        .unwrap_or_else(|e| panic!("{e}\n{written}"));
    (changed, again, written)
}

fn model_json(c: &mut mjrs_xml::Compilation) -> Value {
    serde_json::from_str(&mjrs::dump::model_json(&c.model.view())).unwrap()
}

#[test]
fn saved_changes_agree_with_mujoco() {
    let edits = edits();
    let (_, mut ours, written) = saved(&edits);
    let path = fixtures().join("copy_back/mujoco_saved.xml");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut theirs = mjrs_xml::compile_str(&text, &path.to_string_lossy(), "", None).unwrap();
    let report = compare(&model_json(&mut theirs), &model_json(&mut ours));
    // MuJoCo prints six significant digits, mjrs 17
    assert!(report.is_match(2e-5), "{}\n{written}", report.summary(2e-5));
    // and the differences are of that size, not zero everywhere by accident of the tolerance
    assert!(!report.is_match(0.0));
}

#[test]
fn saved_changes_are_exact() {
    let edits = edits();
    let (mut changed, mut ours, written) = saved(&edits);
    let mut failures = Vec::new();
    for e in &edits {
        let want = read(&mut changed.model.view(), e);
        let got = read(&mut ours.model.view(), e);
        let ok = match (e.field.as_str(), e.row) {
            // inferred from the geoms again: MuJoCo writes no inertial either
            ("body_mass", 3) => got != want,
            // a hinge range in degrees: the nearest degree value may round once
            ("jnt_range", 1) => got
                .iter()
                .zip(&want)
                .all(|(g, w)| (g - w).abs() <= w.abs() * f64::EPSILON),
            // the mesh frame is undone and applied again (as MuJoCo's writer does)
            ("geom_pos", 4) => got.iter().zip(&want).all(|(g, w)| (g - w).abs() <= 1e-15),
            _ => got
                .iter()
                .zip(&want)
                .all(|(g, w)| g.to_bits() == w.to_bits()),
        };
        if !ok {
            failures.push(format!("{} {}: {want:?} saved as {got:?}", e.field, e.row));
        }
    }
    assert!(failures.is_empty(), "{}\n{written}", failures.join("\n"));
}

#[test]
fn unchanged_models_save_as_read() {
    let (_, _, written) = saved(&[]);
    let file = model_path();
    let text = std::fs::read_to_string(&file).unwrap();
    let (spec, _) = mjrs_xml::parse_str(&text, &file, "", None).unwrap();
    assert_eq!(written, mjrs_xml::writer::write_xml(&spec).unwrap());
}
