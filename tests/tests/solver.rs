//! The constraint solver alone against MuJoCo 3.1.6: for every case of
//! `fixtures/solver/stage-cases.txt` (`generate-stage.py`), MuJoCo's Data right before
//! `mj_fwdConstraint` (constraint rows, contacts, mass-matrix factor, smooth acceleration,
//! warmstart) is loaded into an mjrs Data, mjrs's `solver::fwd_constraint_solve` runs, and its
//! results must equal MuJoCo's bit for bit: `qacc`, `qacc_warmstart`, `qfrc_constraint`,
//! `efc_b`, `efc_force`, `efc_state`, the contacts' cone Hessians, `solver_niter`,
//! `solver_nnz` and the per-iteration statistics.
//!
//! The rows come from MuJoCo, so these tests cover PGS, CG and Newton, pyramidal and elliptic
//! cones, dense and sparse Jacobians, noslip and warmstart independently of mjrs's own
//! collision and constraint stages (the end-to-end suite is `tests/constraint.rs`).
//! A second group checks properties on hand-made problems: optimality conditions, agreement
//! of the three solvers, the sparse Cholesky kernels against dense ones.

use mjrs_core::arena::ArenaField;
use mjrs_core::data::Contact;
use mjrs_core::{mjb, Data, Model};
use mjrs_tests::fixtures;
use serde_json::Value;
use std::path::PathBuf;

fn dir() -> PathBuf {
    fixtures().join("solver")
}

/// The case names of the stage manifest.
fn cases() -> Vec<String> {
    std::fs::read_to_string(dir().join("stage-cases.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

fn nums(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn ints(v: &Value) -> Vec<i32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap() as i32)
        .collect()
}

fn count(v: &Value, key: &str) -> usize {
    v[key].as_u64().unwrap() as usize
}

/// The contacts of a snapshot, from per-field arrays.
fn contacts(c: &Value, ncon: usize) -> Vec<Contact> {
    let f = |k: &str| nums(&c[k]);
    let i = |k: &str| ints(&c[k]);
    let (dist, pos, frame, includemargin, friction) = (
        f("dist"),
        f("pos"),
        f("frame"),
        f("includemargin"),
        f("friction"),
    );
    let (solref, solreffriction, solimp, mu, h) = (
        f("solref"),
        f("solreffriction"),
        f("solimp"),
        f("mu"),
        f("H"),
    );
    let (dim, geom1, geom2, geom, flex, elem, vert, exclude, efc_address) = (
        i("dim"),
        i("geom1"),
        i("geom2"),
        i("geom"),
        i("flex"),
        i("elem"),
        i("vert"),
        i("exclude"),
        i("efc_address"),
    );
    (0..ncon)
        .map(|k| Contact {
            dist: dist[k],
            pos: pos[3 * k..3 * k + 3].try_into().unwrap(),
            frame: frame[9 * k..9 * k + 9].try_into().unwrap(),
            includemargin: includemargin[k],
            friction: friction[5 * k..5 * k + 5].try_into().unwrap(),
            solref: solref[2 * k..2 * k + 2].try_into().unwrap(),
            solreffriction: solreffriction[2 * k..2 * k + 2].try_into().unwrap(),
            solimp: solimp[5 * k..5 * k + 5].try_into().unwrap(),
            mu: mu[k],
            H: h[36 * k..36 * k + 36].try_into().unwrap(),
            dim: dim[k],
            geom1: geom1[k],
            geom2: geom2[k],
            geom: geom[2 * k..2 * k + 2].try_into().unwrap(),
            flex: flex[2 * k..2 * k + 2].try_into().unwrap(),
            elem: elem[2 * k..2 * k + 2].try_into().unwrap(),
            vert: vert[2 * k..2 * k + 2].try_into().unwrap(),
            exclude: exclude[k],
            efc_address: efc_address[k],
            _pad: 0,
        })
        .collect()
}

/// Puts MuJoCo's Data before `mj_fwdConstraint` into `d`: sizes, smooth results and the arena
/// arrays, pushed in table order.
fn load_input(d: &mut Data, input: &Value) {
    d.ne = count(input, "ne");
    d.nf = count(input, "nf");
    d.nl = count(input, "nl");
    d.nefc = count(input, "nefc");
    d.nnzJ = count(input, "nnzJ");
    d.ncon = count(input, "ncon");
    for (name, dst) in [
        ("qM", &mut *d.qM),
        ("qLD", &mut *d.qLD),
        ("qLDiagInv", &mut *d.qLDiagInv),
        ("qacc_smooth", &mut *d.qacc_smooth),
        ("qfrc_smooth", &mut *d.qfrc_smooth),
        ("qacc_warmstart", &mut *d.qacc_warmstart),
    ] {
        dst.copy_from_slice(&nums(&input[name]));
    }
    d.qfrc_constraint.fill(0.0);
    d.qacc.fill(0.0);

    let nefc = d.nefc;
    let con = contacts(&input["contact"], d.ncon);
    d.arena.clear();
    let mut stack = d.arena.stack();
    stack
        .push::<Contact>(ArenaField::contact as usize, con.len())
        .unwrap()
        .copy_from_slice(&con);
    let int_field = |stack: &mut mjrs_core::Stack, field: ArenaField, name: &str| {
        let v = ints(&input[name]);
        stack
            .push::<i32>(field as usize, v.len())
            .unwrap()
            .copy_from_slice(&v);
    };
    let num_field = |stack: &mut mjrs_core::Stack, field: ArenaField, name: &str| {
        let v = nums(&input[name]);
        stack
            .push::<f64>(field as usize, v.len())
            .unwrap()
            .copy_from_slice(&v);
    };
    use ArenaField as F;
    int_field(&mut stack, F::efc_type, "efc_type");
    int_field(&mut stack, F::efc_id, "efc_id");
    int_field(&mut stack, F::efc_J_rownnz, "efc_J_rownnz");
    int_field(&mut stack, F::efc_J_rowadr, "efc_J_rowadr");
    int_field(&mut stack, F::efc_J_rowsuper, "efc_J_rowsuper");
    int_field(&mut stack, F::efc_J_colind, "efc_J_colind");
    int_field(&mut stack, F::efc_JT_rownnz, "efc_JT_rownnz");
    int_field(&mut stack, F::efc_JT_rowadr, "efc_JT_rowadr");
    int_field(&mut stack, F::efc_JT_rowsuper, "efc_JT_rowsuper");
    int_field(&mut stack, F::efc_JT_colind, "efc_JT_colind");
    num_field(&mut stack, F::efc_J, "efc_J");
    num_field(&mut stack, F::efc_JT, "efc_JT");
    num_field(&mut stack, F::efc_pos, "efc_pos");
    num_field(&mut stack, F::efc_margin, "efc_margin");
    num_field(&mut stack, F::efc_frictionloss, "efc_frictionloss");
    num_field(&mut stack, F::efc_diagApprox, "efc_diagApprox");
    num_field(&mut stack, F::efc_KBIP, "efc_KBIP");
    num_field(&mut stack, F::efc_D, "efc_D");
    num_field(&mut stack, F::efc_R, "efc_R");
    int_field(&mut stack, F::tendon_efcadr, "tendon_efcadr");
    num_field(&mut stack, F::efc_vel, "efc_vel");
    num_field(&mut stack, F::efc_aref, "efc_aref");
    stack
        .push::<f64>(F::efc_b as usize, nefc)
        .unwrap()
        .fill(0.0);
    stack
        .push::<f64>(F::efc_force as usize, nefc)
        .unwrap()
        .fill(0.0);
    stack
        .push::<i32>(F::efc_state as usize, nefc)
        .unwrap()
        .fill(-1);
    if input.get("efc_AR").is_some() {
        int_field(&mut stack, F::efc_AR_rownnz, "efc_AR_rownnz");
        int_field(&mut stack, F::efc_AR_rowadr, "efc_AR_rowadr");
        int_field(&mut stack, F::efc_AR_colind, "efc_AR_colind");
        num_field(&mut stack, F::efc_AR, "efc_AR");
    }
}

/// Largest absolute difference of two equally long lists (infinite on a length mismatch or a
/// NaN on one side only).
fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    if a.len() != b.len() {
        return f64::INFINITY;
    }
    a.iter().zip(b).fold(0.0, |m: f64, (x, y)| {
        if x.to_bits() == y.to_bits() {
            m
        } else if x.is_nan() || y.is_nan() {
            f64::INFINITY
        } else {
            m.max((x - y).abs())
        }
    })
}

/// Whether two lists are equal bit for bit.
fn same_bits(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

/// One comparison: name, max difference, bit-exact.
type Row = (String, f64, bool);

/// mjrs's results for a snapshot against MuJoCo's.
fn compare_output(m: &Model, d: &Data, out: &Value) -> Vec<Row> {
    let mut rows = Vec::new();
    let mut num = |name: &str, ours: &[f64], theirs: Vec<f64>| {
        rows.push((
            name.to_string(),
            max_diff(ours, &theirs),
            same_bits(ours, &theirs),
        ));
    };
    num("qacc", d.qacc, nums(&out["qacc"]));
    num(
        "qacc_warmstart",
        d.qacc_warmstart,
        nums(&out["qacc_warmstart"]),
    );
    num(
        "qfrc_constraint",
        d.qfrc_constraint,
        nums(&out["qfrc_constraint"]),
    );
    let a = d.arena.arrays();
    num("efc_b", a.efc_b, nums(&out["efc_b"]));
    num("efc_force", a.efc_force, nums(&out["efc_force"]));
    let h: Vec<f64> = a.contact.iter().flat_map(|c| c.H).collect();
    num("contact.H", &h, nums(&out["contact_H"]));
    let stats = &out["solver"];
    let niter = (d.solver_niter[0] as usize).min(mjrs_core::types::NSOLVER);
    let stat = |f: fn(&mjrs_core::data::SolverStat) -> f64| -> Vec<f64> {
        d.solver[..niter].iter().map(f).collect()
    };
    num(
        "solver.improvement",
        &stat(|s| s.improvement),
        nums(&stats["improvement"]),
    );
    num(
        "solver.gradient",
        &stat(|s| s.gradient),
        nums(&stats["gradient"]),
    );
    num(
        "solver.lineslope",
        &stat(|s| s.lineslope),
        nums(&stats["lineslope"]),
    );
    let mut int = |name: &str, ours: Vec<i32>, theirs: Vec<i32>| {
        let to_f = |v: &[i32]| v.iter().map(|&x| f64::from(x)).collect::<Vec<_>>();
        let (o, t) = (to_f(&ours), to_f(&theirs));
        rows.push((name.to_string(), max_diff(&o, &t), o == t));
    };
    int("efc_state", a.efc_state.to_vec(), ints(&out["efc_state"]));
    int(
        "solver_niter",
        vec![d.solver_niter[0]],
        vec![out["solver_niter"].as_i64().unwrap() as i32],
    );
    int(
        "solver_nnz",
        vec![d.solver_nnz[0]],
        vec![out["solver_nnz"].as_i64().unwrap() as i32],
    );
    for (name, f) in [
        (
            "solver.nactive",
            (|s| s.nactive) as fn(&mjrs_core::data::SolverStat) -> i32,
        ),
        ("solver.nchange", |s| s.nchange),
        ("solver.neval", |s| s.neval),
        ("solver.nupdate", |s| s.nupdate),
    ] {
        let key = name.trim_start_matches("solver.");
        int(
            name,
            d.solver[..niter].iter().map(f).collect(),
            ints(&stats[key]),
        );
    }
    let _ = m;
    rows
}

/// Runs every snapshot of a case; returns per snapshot its step count and comparison rows.
fn run_case(name: &str) -> Vec<(u64, Vec<Row>)> {
    let blob = std::fs::read(dir().join(format!("{name}.mjb"))).unwrap();
    let mut mbuf = vec![0u8; mjb::read_header(&blob).unwrap().model_bytes().unwrap()];
    let m = mjb::load(&blob, &mut mbuf).unwrap();
    let text = std::fs::read_to_string(dir().join(format!("{name}.stage.json"))).unwrap();
    let fixture: Value = serde_json::from_str(&text).unwrap();
    let mut results = Vec::new();
    for snap in fixture["snapshots"].as_array().unwrap() {
        let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
        let mut d = Data::new(&m, &mut dbuf).unwrap();
        load_input(&mut d, &snap["input"]);
        mjrs_core::solver::fwd_constraint_solve(&m, &mut d)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        results.push((
            snap["steps"].as_u64().unwrap(),
            compare_output(&m, &d, &snap["output"]),
        ));
    }
    results
}

#[test]
fn solver_stage_matches_mujoco_bit_for_bit() {
    let mut failures = Vec::new();
    for name in cases() {
        for (steps, rows) in run_case(&name) {
            let worst = rows
                .iter()
                .filter(|r| !r.2)
                .map(|r| format!("{} {:.1e}", r.0, r.1))
                .collect::<Vec<_>>();
            let status = if worst.is_empty() {
                "bit-exact".to_string()
            } else {
                worst.join(", ")
            };
            println!("{name:<32} step {steps:>4}: {status}");
            if !worst.is_empty() {
                failures.push(format!("{name} step {steps}: {status}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
