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

/// One contact as numbers: geom ids, dim, exclude, then the real members.
type Flat = (Vec<i64>, Vec<f64>);

/// Runs the f32 core's stages up to collision from keyframe `key` of fixture `name` and returns
/// its contacts, widened.
fn f32_contacts(name: &str, key: i32) -> Vec<Flat> {
    use mjrs_core_f32 as core32;
    let blob = std::fs::read(fixtures().join(format!("collision/{name}.mjb"))).unwrap();
    let mut mbuf = vec![
        0u8;
        core32::mjb::read_header(&blob)
            .unwrap()
            .model_bytes()
            .unwrap()
    ];
    let m = core32::mjb::load(&blob, &mut mbuf).unwrap();
    let mut dbuf = vec![0u8; core32::Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = core32::Data::new(&m, &mut dbuf).unwrap();
    if key >= 0 {
        core32::io::reset_data_keyframe(&m, &mut d, key);
    }
    core32::smooth::kinematics(&m, &mut d);
    core32::smooth::com_pos(&m, &mut d).unwrap();
    core32::smooth::camlight(&m, &mut d);
    core32::tendon::tendon(&m, &mut d).unwrap();
    core32::smooth::crb(&m, &mut d);
    core32::smooth::factor_m(&m, &mut d);
    core32::collision::collision(&m, &mut d).unwrap();
    let arrays = d.arena.arrays();
    arrays.contact[..d.ncon]
        .iter()
        .map(|c| {
            let ints = [c.geom1, c.geom2, c.dim, c.exclude].map(i64::from).to_vec();
            let reals = [c.dist, c.includemargin]
                .iter()
                .chain(&c.pos)
                .chain(&c.frame)
                .chain(&c.friction)
                .chain(&c.solref)
                .chain(&c.solreffriction)
                .chain(&c.solimp)
                .map(|&x| f64::from(x))
                .collect();
            (ints, reals)
        })
        .collect()
}

/// The reference contacts of one record, in the layout of [`f32_contacts`].
fn reference_contacts(r: &Value) -> Vec<Flat> {
    let c = &r["contact"];
    let list = |k: &str| -> Vec<f64> {
        c[k].as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    };
    let n = r["ncon"].as_u64().unwrap() as usize;
    let (geom1, geom2, dim, exclude) = (list("geom1"), list("geom2"), list("dim"), list("exclude"));
    let members: Vec<(Vec<f64>, usize)> = [
        ("dist", 1),
        ("includemargin", 1),
        ("pos", 3),
        ("frame", 9),
        ("friction", 5),
        ("solref", 2),
        ("solreffriction", 2),
        ("solimp", 5),
    ]
    .iter()
    .map(|&(k, w)| (list(k), w))
    .collect();
    (0..n)
        .map(|i| {
            let ints = [geom1[i], geom2[i], dim[i], exclude[i]]
                .map(|x| x as i64)
                .to_vec();
            let reals = members
                .iter()
                .flat_map(|(v, w)| v[i * w..(i + 1) * w].iter().copied())
                .collect();
            (ints, reals)
        })
        .collect()
}

/// Largest mixed difference (absolute below 1, relative above) between two lists of numbers.
fn max_mixed(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs() / y.abs().max(1.0))
        .fold(0.0, f64::max)
}

/// Cases the f32 build cannot reproduce: the arena-full models (an f32 contact is smaller, so
/// more fit) and key 0 of the midphase model, where a box rests exactly on a wall (distance 0
/// at margin 0, a tie that single-precision rounding breaks either way).
fn f32_exempt(name: &str, key: i32) -> bool {
    name.starts_with("collision_full") || (name.starts_with("collision_midphase") && key == 0)
}

/// The f32 build finds the same contacts (in any order within a geom pair, since ties in
/// symmetric configurations may order them differently), with numbers within `TOL` (absolute
/// below 1, relative above; MPR's convex pairs are the least precise) of MuJoCo's
/// double-precision ones.
#[test]
fn f32_build_finds_the_same_contacts() {
    const TOL: f64 = 1e-3;
    let mut failures = Vec::new();
    let mut worst = 0.0f64;
    for name in manifest() {
        let records = read_json(&fixtures().join(format!("collision/{name}.json")));
        for r in records.as_array().unwrap() {
            let key = r["key"].as_i64().unwrap() as i32;
            if f32_exempt(&name, key) {
                continue;
            }
            let (ours, reference) = (f32_contacts(&name, key), reference_contacts(r));
            if ours.len() != reference.len() {
                failures.push(format!(
                    "{name} key {key}: {} contacts, MuJoCo {}",
                    ours.len(),
                    reference.len()
                ));
                continue;
            }
            let mut used = vec![false; ours.len()];
            for (i, b) in reference.iter().enumerate() {
                let best = ours
                    .iter()
                    .enumerate()
                    .filter(|(j, a)| !used[*j] && a.0 == b.0)
                    .map(|(j, a)| (j, max_mixed(&a.1, &b.1)))
                    .min_by(|x, y| x.1.total_cmp(&y.1));
                match best {
                    Some((j, diff)) if diff <= TOL => {
                        used[j] = true;
                        worst = worst.max(diff);
                    }
                    _ => failures.push(format!(
                        "{name} key {key}: no f32 contact matches contact {i} ({:?}) within {TOL:e}",
                        b.0
                    )),
                }
            }
        }
    }
    println!("f32 contacts: largest difference {worst:e}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
