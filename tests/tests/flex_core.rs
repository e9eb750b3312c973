//! Flex kinematics and passive forces against MuJoCo 3.1.6, bit for bit, on MuJoCo's MJB of the
//! models of `tests/fixtures/flexcore-models.txt` (`fixtures/generate-flexcore.py`; contacts off):
//! * after 20 steps of the control law and a forward pass: `flexvert_xpos`, `flexelem_aabb`,
//!   `bvh_aabb_dyn`, `flexedge_length`, `flexedge_J` (dense and sparse, with its row structure),
//!   `flexedge_velocity`, the passive forces, `qDeriv`, `qacc`, `energy`, and the constraint rows of flex
//!   equalities (`efc_type`, `efc_id`, `efc_pos`, `efc_diagApprox`, `efc_KBIP`, `efc_D`,
//!   `efc_R`, `efc_force`, `efc_J` dense and sparse with its structure); then `qfrc_inverse` of
//!   inverse dynamics on that state;
//! * over 1000 steps (every 50th recorded): `time`, `qpos`, `qvel`, `act`, `flexedge_length`,
//!   under Euler, implicit, implicitfast and RK4.

use mjrs_core::types::*;
use mjrs_core::{io, Data, Model};
use mjrs_tests::plugin_traj::{control, load};
use mjrs_tests::sha256::sha256_hex;
use mjrs_tests::{fixtures, read_json};
use serde_json::Value;

/// A row of the manifest: fixture name, MJB file stem, disabled stages, Jacobian override.
struct Case {
    name: String,
    stem: String,
    disable: i32,
    jacobian: Option<i32>,
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(fixtures().join("flexcore-models.txt")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            let stem = std::path::Path::new(cols[1]).file_stem().unwrap();
            let disable = cols[2].split(',').fold(0, |acc, n| {
                acc | match n {
                    "contact" => DSBL_CONTACT,
                    "constraint" => DSBL_CONSTRAINT,
                    "midphase" => DSBL_MIDPHASE,
                    _ => panic!("unknown flag {n}"),
                }
            });
            let jacobian = cols.get(3).map(|j| match *j {
                "dense" => JAC_DENSE,
                "sparse" => JAC_SPARSE,
                _ => panic!("unknown jacobian {j}"),
            });
            Case {
                name: cols[0].to_string(),
                stem: stem.to_str().unwrap().to_string(),
                disable,
                jacobian,
            }
        })
        .collect()
}

/// The case's model, as the generator changed it.
fn with_model(case: &Case, f: impl FnOnce(&Model)) {
    let blob = std::fs::read(
        fixtures()
            .join("flexcore")
            .join(format!("{}.mjb", case.stem)),
    )
    .unwrap();
    let mut buf = Vec::new();
    let mut m = load(&blob, &mut buf);
    m.opt.disableflags |= case.disable;
    if let Some(j) = case.jacobian {
        m.opt.jacobian = j;
    }
    f(&m)
}

/// A recorded field of `d`: floats or ints.
enum Values<'a> {
    Num(&'a [f64]),
    Int(&'a [i32]),
}

fn field<'a>(m: &Model, d: &'a Data, name: &str) -> Values<'a> {
    use Values::*;
    let a = d.arena.arrays();
    let nefc = d.nefc;
    let sparse = mjrs_core::support::is_sparse(m);
    let nnz = if nefc == 0 || !sparse {
        0
    } else {
        (a.efc_J_rowadr[nefc - 1] + a.efc_J_rownnz[nefc - 1]) as usize
    };
    let rows = if sparse { nefc } else { 0 };
    match name {
        "efc_type" => Int(&a.efc_type[..nefc]),
        "efc_id" => Int(&a.efc_id[..nefc]),
        "efc_pos" => Num(&a.efc_pos[..nefc]),
        "efc_diagApprox" => Num(&a.efc_diagApprox[..nefc]),
        "efc_KBIP" => Num(&a.efc_KBIP[..4 * nefc]),
        "efc_D" => Num(&a.efc_D[..nefc]),
        "efc_R" => Num(&a.efc_R[..nefc]),
        "efc_force" => Num(&a.efc_force[..nefc]),
        "efc_J" if sparse => Num(&a.efc_J[..nnz]),
        "efc_J" => Num(&a.efc_J[..nefc * m.nv]),
        "efc_J_colind" => Int(&a.efc_J_colind[..if sparse { nnz } else { 0 }]),
        "efc_J_rownnz" => Int(&a.efc_J_rownnz[..rows]),
        "efc_J_rowadr" => Int(&a.efc_J_rowadr[..rows]),
        "flexvert_xpos" => Num(d.flexvert_xpos),
        "flexelem_aabb" => Num(d.flexelem_aabb),
        "bvh_aabb_dyn" => Num(d.bvh_aabb_dyn),
        "flexedge_length" => Num(d.flexedge_length),
        "flexedge_J" => Num(d.flexedge_J),
        "flexedge_J_rownnz" => Int(d.flexedge_J_rownnz),
        "flexedge_J_rowadr" => Int(d.flexedge_J_rowadr),
        "flexedge_J_colind" => Int(d.flexedge_J_colind),
        "flexedge_velocity" => Num(d.flexedge_velocity),
        "qfrc_spring" => Num(d.qfrc_spring),
        "qfrc_damper" => Num(d.qfrc_damper),
        "qfrc_passive" => Num(d.qfrc_passive),
        "qDeriv" => Num(d.qDeriv),
        "qacc" => Num(d.qacc),
        "qpos" => Num(d.qpos),
        "qvel" => Num(d.qvel),
        "act" => Num(d.act),
        "energy" => Num(&d.energy),
        _ => panic!("unknown field {name}"),
    }
}

/// Compares `ours` with a recorded value (a list of f64 bits or ints, or a hash); returns the
/// number of values compared and a description of the first mismatch.
fn compare(what: &str, ours: Values, reference: &Value) -> (usize, Option<String>) {
    if let Some(hash) = reference.get("sha256") {
        let len = reference["len"].as_u64().unwrap() as usize;
        let bytes: Vec<u8> = match ours {
            Values::Num(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            Values::Int(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
        };
        let count = match ours {
            Values::Num(v) => v.len(),
            Values::Int(v) => v.len(),
        };
        let bad = (count != len || sha256_hex(&bytes) != hash.as_str().unwrap())
            .then(|| format!("{what}: the hash of {count} values differs"));
        return (count, bad);
    }
    let list = reference.as_array().unwrap();
    let mismatch = |k: usize, o: String, r: String| Some(format!("{what}[{k}] = {o}, MuJoCo {r}"));
    let count = list.len();
    let len = match ours {
        Values::Num(v) => v.len(),
        Values::Int(v) => v.len(),
    };
    if len != count {
        return (0, Some(format!("{what}: {len} values, MuJoCo {count}")));
    }
    let bad = match ours {
        Values::Num(v) => v.iter().zip(list).enumerate().find_map(|(k, (o, r))| {
            let theirs = f64::from_bits(u64::from_str_radix(r.as_str().unwrap(), 16).unwrap());
            (o.to_bits() != theirs.to_bits() && !(o.is_nan() && theirs.is_nan()))
                .then(|| mismatch(k, format!("{o:e}"), format!("{theirs:e}")))
                .flatten()
        }),
        Values::Int(v) => v.iter().zip(list).enumerate().find_map(|(k, (o, r))| {
            (i64::from(*o) != r.as_i64().unwrap())
                .then(|| mismatch(k, o.to_string(), r.to_string()))
                .flatten()
        }),
    };
    (count, bad)
}

fn new_data<'a>(m: &Model, buf: &'a mut Vec<u8>) -> Data<'a> {
    buf.resize(Data::bytes_needed(m.sizes()).unwrap(), 0);
    let mut d = Data::new(m, buf).unwrap();
    io::reset_data(m, &mut d);
    d
}

#[test]
fn flex_fields_after_steps_match_reference_bit_for_bit() {
    let mut failures = Vec::new();
    for case in cases() {
        let reference = read_json(
            &fixtures()
                .join("flexcore")
                .join(format!("{}.data.json", case.name)),
        );
        with_model(&case, |m| {
            let mut buf = Vec::new();
            let mut d = new_data(m, &mut buf);
            for _ in 0..reference["steps"].as_u64().unwrap() {
                control(m, &mut d);
                mjrs_core::step(m, &mut d).unwrap_or_else(|e| panic!("{}: {e}", case.name));
            }
            mjrs_core::forward(m, &mut d).unwrap();
            let mut total = 0;
            for (name, value) in reference.as_object().unwrap() {
                if name == "steps" || name == "qfrc_inverse" {
                    continue;
                }
                let (n, bad) = compare(&format!("{} {name}", case.name), field(m, &d, name), value);
                total += n;
                failures.extend(bad);
            }
            // then inverse dynamics on the same state
            mjrs_core::inverse(m, &mut d).unwrap_or_else(|e| panic!("{}: {e}", case.name));
            let what = format!("{} qfrc_inverse", case.name);
            let (n, bad) = compare(
                &what,
                Values::Num(d.qfrc_inverse),
                &reference["qfrc_inverse"],
            );
            total += n;
            failures.extend(bad);
            println!("{:<20} {total} values", case.name);
            assert!(total > 0);
        });
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn trajectories_match_reference_bit_for_bit_for_1000_steps() {
    let mut failures = Vec::new();
    for case in cases() {
        let traj = read_json(
            &fixtures()
                .join("flexcore")
                .join(format!("{}.traj.json", case.name)),
        );
        with_model(&case, |m| {
            let mut buf = Vec::new();
            let mut d = new_data(m, &mut buf);
            let every = traj["every"].as_u64().unwrap() as usize;
            let rec = traj["records"].as_object().unwrap();
            let mut total = 0;
            for step in 1..=traj["steps"].as_u64().unwrap() as usize {
                control(m, &mut d);
                mjrs_core::step(m, &mut d).unwrap_or_else(|e| panic!("{}: {e}", case.name));
                if step % every != 0 {
                    continue;
                }
                let row = step / every - 1;
                let time = [d.time];
                for (name, rows) in rec {
                    let ours = if name == "time" {
                        Values::Num(&time)
                    } else {
                        field(m, &d, name)
                    };
                    let what = format!("{} step {step} {name}", case.name);
                    let value = if name == "time" {
                        Value::Array(vec![rows[row].clone()])
                    } else {
                        rows[row].clone()
                    };
                    let (n, bad) = compare(&what, ours, &value);
                    total += n;
                    failures.extend(bad);
                }
            }
            println!("{:<20} {total} values over 1000 steps", case.name);
            assert!(total > 0);
        });
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
