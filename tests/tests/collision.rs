//! Collision detection (`collision::collision`, MuJoCo's `mj_collision` with the primitive and
//! box colliders) against MuJoCo 3.1.6, at the stage level.
//!
//! `fixtures/collision/NAME.json` (made by `fixtures/collision/generate.sh` from the models of
//! `fixtures/collision/models.txt`) holds, per keyframe, what MuJoCo's `mj_forward` found:
//! `ncon`, every member of the contact array (but `efc_address`, `mu` and `H`, which the
//! constraint stage sets) and `bvh_active`. Here mjrs runs the position stages up to collision
//! from the same keyframe and must agree on every one of them, bit for bit.

use mjrs_core::types::WARN_CONTACTFULL;
use mjrs_core::{collision, io, mjb, smooth, tendon, Data, Model};
use mjrs_tests::{compare, fixtures, read_json};
use serde_json::{json, Value};

/// The models of the manifest: name and whether a model is expected to need the convex
/// colliders (which may refuse while they are being written).
fn manifest() -> Vec<String> {
    let text = std::fs::read_to_string(fixtures().join("collision/models.txt")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

/// Loads fixture model `name` and calls `f` with it and a fresh data.
fn with_model<R>(name: &str, f: impl FnOnce(&Model, &mut Data) -> R) -> R {
    let blob = std::fs::read(fixtures().join(format!("collision/{name}.mjb"))).unwrap();
    let mut mbuf = vec![0u8; mjb::read_header(&blob).unwrap().model_bytes().unwrap()];
    let m = mjb::load(&blob, &mut mbuf).unwrap();
    let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = Data::new(&m, &mut dbuf).unwrap();
    f(&m, &mut d)
}

/// The position stages before collision detection, then collision detection.
fn run_to_collision(m: &Model, d: &mut Data) {
    smooth::kinematics(m, d);
    smooth::com_pos(m, d).unwrap();
    smooth::camlight(m, d);
    tendon::tendon(m, d).unwrap();
    smooth::crb(m, d);
    smooth::factor_m(m, d);
    collision::collision(m, d).unwrap();
}

/// What the stage computed, shaped like a reference record.
fn dump(m: &Model, d: &Data) -> Value {
    let full: Value = serde_json::from_str(&mjrs::dump::data_json(m, d)).unwrap();
    let mut contact = full["contact"].clone();
    for k in ["mu", "H", "efc_address"] {
        contact.as_object_mut().unwrap().remove(k);
    }
    json!({
        "ncon": full["ncon"],
        "bvh_active": full["bvh_active"],
        "contact": contact,
        "contactfull": d.warning[WARN_CONTACTFULL as usize].number,
    })
}

/// The reference record with the same shape as [`dump`].
fn reference_record(r: &Value) -> Value {
    let full = r["warning"]
        .get(WARN_CONTACTFULL.to_string())
        .cloned()
        .unwrap_or(json!(0));
    json!({
        "ncon": r["ncon"],
        "bvh_active": r["bvh_active"],
        "contact": r["contact"],
        "contactfull": full,
    })
}

/// Compares every keyframe of model `name`; returns the mismatches as text, and the number of
/// contacts compared.
fn check_model(name: &str) -> (Vec<String>, usize) {
    let records = read_json(&fixtures().join(format!("collision/{name}.json")));
    let mut failures = Vec::new();
    let mut ncon = 0;
    with_model(name, |m, d| {
        for r in records.as_array().unwrap() {
            let key = r["key"].as_i64().unwrap() as i32;
            if key >= 0 {
                io::reset_data_keyframe(m, d, key);
            } else {
                io::reset_data(m, d);
            }
            run_to_collision(m, d);
            ncon += d.ncon;
            let report = compare(&reference_record(r), &dump(m, d));
            if !report.is_match(0.0) {
                failures.push(format!("{name} key {key}:\n{}", report.summary(0.0)));
            }
        }
    });
    (failures, ncon)
}

#[test]
fn contacts_match_reference_bit_for_bit() {
    let mut failures = Vec::new();
    for name in manifest() {
        let (f, ncon) = check_model(&name);
        println!(
            "{name:<28} {ncon:>5} contacts, {} mismatching keys",
            f.len()
        );
        failures.extend(f);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
