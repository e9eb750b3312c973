//! Constraint rows (`core/src/constraint.rs`) against MuJoCo 3.1.6, stage by stage: for every
//! case of `fixtures/rows/cases.txt`, mjrs runs `fwd_position` and `fwd_velocity` from the
//! keyframe, and every constraint field computed before the solver must equal the reference's
//! (`mjref data` after `mj_forward`; these fields are final before the solver runs):
//! the counts `ne nf nl nefc nnzJ ncon`, `efc_type id pos margin frictionloss diagApprox KBIP D R
//! vel aref`, `tendon_efcadr`, the Jacobian (dense, or sparse with its transpose and
//! supernodes), `efc_AR` for dual solvers, the contacts (`efc_address`, `exclude`, `mu`, ...)
//! and the warnings. Regenerate the fixtures with `fixtures/rows/generate.sh`.
//!
//! The reference leaves some memory uninitialized, which is not compared: the sparse index
//! arrays of a dense Jacobian, `efc_J` after the last row of a dense Jacobian (MuJoCo allocates
//! for every counted row, and drops rows with an all-zero Jacobian), and `efc_AR`/
//! `efc_AR_colind` beyond each row's non-zeros when sparse.

use mjrs_core::types::*;
use mjrs_core::{forward, io, mjb, Data, Model};
use mjrs_tests::fixtures;
use serde_json::Value;

/// Largest mixed difference allowed (absolute below 1, relative above).
const TOL: f64 = 1e-12;

/// A case of `cases.txt`: fixture name and keyframe.
struct Case {
    name: String,
    key: Option<i32>,
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(fixtures().join("rows/cases.txt")).unwrap();
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

/// The numbers of field `name` (`contact.dist` for a contact member), flattened; `None` when
/// the dump has no such field.
fn field(v: &Value, name: &str) -> Option<Vec<f64>> {
    let field = match name.split_once('.') {
        Some((outer, inner)) => v.get(outer)?.get(inner)?,
        None => v.get(name)?,
    };
    let mut out = Vec::new();
    flatten(field, &mut out);
    Some(out)
}

/// [`field`], which must exist.
fn numbers(v: &Value, name: &str) -> Vec<f64> {
    field(v, name).unwrap_or_else(|| panic!("no field {name}"))
}

fn flatten(v: &Value, out: &mut Vec<f64>) {
    match v {
        Value::Array(a) => a.iter().for_each(|x| flatten(x, out)),
        Value::Number(n) => out.push(n.as_f64().unwrap()),
        Value::String(s) => out.push(s.parse().unwrap_or(f64::NAN)),
        _ => {}
    }
}

/// What shapes the comparison of a case: Jacobian type, solver kind and sizes.
struct Shape {
    sparse: bool,
    dual: bool,
    nv: usize,
    nefc: usize,
}

/// One compared field: its name and the largest mixed difference (infinite when the lengths
/// differ).
struct FieldResult {
    name: String,
    diff: f64,
}

/// Mixed difference of two equally long lists; infinite when the lengths differ or one side
/// is NaN where the other is not.
fn mixed_diff(reference: &[f64], ours: &[f64]) -> f64 {
    if reference.len() != ours.len() {
        return f64::INFINITY;
    }
    reference
        .iter()
        .zip(ours)
        .map(|(&a, &b)| {
            if a.is_nan() && b.is_nan() {
                0.0
            } else {
                let d = (a - b).abs() / a.abs().max(1.0);
                if d.is_nan() {
                    f64::INFINITY
                } else {
                    d
                }
            }
        })
        .fold(0.0, f64::max)
}

/// Compares the first `len` numbers of field `name` (all of them for `None`).
fn prefix(reference: &Value, ours: &Value, name: &str, len: Option<usize>) -> FieldResult {
    let (a, b) = (numbers(reference, name), numbers(ours, name));
    let cut = |v: &[f64]| -> Vec<f64> { v[..len.unwrap_or(v.len()).min(v.len())].to_vec() };
    let diff = match len {
        Some(n) if a.len() < n || b.len() < n => f64::INFINITY,
        _ => mixed_diff(&cut(&a), &cut(&b)),
    };
    FieldResult {
        name: name.to_string(),
        diff,
    }
}

/// Compares a sparse `nefc x nefc` matrix field (`efc_AR`, `efc_AR_colind`) within each row's
/// non-zeros, which the reference's `efc_AR_rownnz`/`efc_AR_rowadr` locate.
fn sparse_rows(reference: &Value, ours: &Value, name: &str, nefc: usize) -> FieldResult {
    let (a, b) = (numbers(reference, name), numbers(ours, name));
    let rownnz = numbers(reference, "efc_AR_rownnz");
    let rowadr = numbers(reference, "efc_AR_rowadr");
    let mut diff: f64 = 0.0;
    for r in 0..nefc {
        let (adr, n) = (rowadr[r] as usize, rownnz[r] as usize);
        diff = match (a.get(adr..adr + n), b.get(adr..adr + n)) {
            (Some(x), Some(y)) => diff.max(mixed_diff(x, y)),
            _ => f64::INFINITY,
        };
    }
    FieldResult {
        name: name.to_string(),
        diff,
    }
}

/// Every compared field of a case.
fn compare_case(reference: &Value, ours: &Value, s: &Shape) -> Vec<FieldResult> {
    let mut out = Vec::new();
    let all = |name: &str| prefix(reference, ours, name, None);
    for name in ["ne", "nf", "nl", "nefc", "nnzJ", "ncon", "tendon_efcadr"] {
        out.push(all(name));
    }
    for name in [
        "efc_type",
        "efc_id",
        "efc_pos",
        "efc_margin",
        "efc_frictionloss",
        "efc_diagApprox",
        "efc_KBIP",
        "efc_D",
        "efc_R",
        "efc_vel",
        "efc_aref",
    ] {
        out.push(all(name));
    }
    if s.sparse {
        for name in [
            "efc_J",
            "efc_J_rownnz",
            "efc_J_rowadr",
            "efc_J_rowsuper",
            "efc_J_colind",
            "efc_JT",
            "efc_JT_rownnz",
            "efc_JT_rowadr",
            "efc_JT_rowsuper",
            "efc_JT_colind",
        ] {
            out.push(all(name));
        }
    } else {
        out.push(prefix(reference, ours, "efc_J", Some(s.nefc * s.nv)));
    }
    if s.dual && s.sparse {
        out.push(all("efc_AR_rownnz"));
        out.push(all("efc_AR_rowadr"));
        out.push(sparse_rows(reference, ours, "efc_AR", s.nefc));
        out.push(sparse_rows(reference, ours, "efc_AR_colind", s.nefc));
    } else if s.dual {
        out.push(all("efc_AR"));
    }
    for member in [
        "dist",
        "pos",
        "frame",
        "includemargin",
        "friction",
        "solref",
        "solreffriction",
        "solimp",
        "mu",
        "dim",
        "geom1",
        "geom2",
        "exclude",
        "efc_address",
    ] {
        out.push(all(&format!("contact.{member}")));
    }
    let warnings = |v: &Value| v["warning"].to_string();
    out.push(FieldResult {
        name: "warning".into(),
        diff: if warnings(reference) == warnings(ours) {
            0.0
        } else {
            f64::INFINITY
        },
    });
    out
}

/// Runs the position and velocity stages of a case and returns the comparison.
fn run_case(case: &Case) -> (Shape, Vec<FieldResult>) {
    let blob = std::fs::read(fixtures().join(format!("rows/{}.mjb", case.name))).unwrap();
    let header = mjb::read_header(&blob).unwrap();
    let mut mbuf = vec![0u8; header.model_bytes().unwrap()];
    let m: Model = mjb::load(&blob, &mut mbuf).unwrap();
    let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = Data::new(&m, &mut dbuf).unwrap();
    if let Some(k) = case.key {
        io::reset_data_keyframe(&m, &mut d, k);
    }
    forward::fwd_position(&m, &mut d).unwrap_or_else(|e| panic!("{}: {e}", case.name));
    forward::fwd_velocity(&m, &mut d).unwrap_or_else(|e| panic!("{}: {e}", case.name));
    let ours: Value = serde_json::from_str(&mjrs::dump::data_json(&m, &d)).unwrap();
    let text = std::fs::read_to_string(fixtures().join(format!("rows/{}.json", case.name)));
    let reference: Value = serde_json::from_str(&text.unwrap()).unwrap();
    let shape = Shape {
        sparse: mjrs_core::support::is_sparse(&m),
        dual: mjrs_core::constraint::is_dual(&m),
        nv: m.nv,
        nefc: d.nefc,
    };
    let results = compare_case(&reference, &ours, &shape);
    (shape, results)
}

#[test]
fn rows_match_reference() {
    let mut failures = Vec::new();
    for case in cases() {
        let (shape, results) = run_case(&case);
        let worst = results
            .iter()
            .max_by(|a, b| a.diff.total_cmp(&b.diff))
            .filter(|r| r.diff > 0.0)
            .map_or("bit for bit".to_string(), |r| {
                format!("{} {:.1e}", r.name, r.diff)
            });
        println!(
            "{:<28} nefc {:>3} {} {}  largest difference: {worst}",
            case.name,
            shape.nefc,
            if shape.sparse { "sparse" } else { "dense " },
            if shape.dual { "dual  " } else { "primal" },
        );
        for r in results.iter().filter(|r| r.diff.is_nan() || r.diff > TOL) {
            failures.push(format!("{}: {} differs by {:e}", case.name, r.name, r.diff));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_kind_of_row_is_covered() {
    let mut seen = [false; 8];
    let mut sparse_dual = false;
    for case in cases() {
        let (shape, _) = run_case(&case);
        sparse_dual |= shape.sparse && shape.dual;
        let text = std::fs::read_to_string(fixtures().join(format!("rows/{}.json", case.name)));
        let reference: Value = serde_json::from_str(&text.unwrap()).unwrap();
        for t in numbers(&reference, "efc_type") {
            seen[t as usize] = true;
        }
    }
    let kinds = [
        CNSTR_EQUALITY,
        CNSTR_FRICTION_DOF,
        CNSTR_FRICTION_TENDON,
        CNSTR_LIMIT_JOINT,
        CNSTR_LIMIT_TENDON,
        CNSTR_CONTACT_FRICTIONLESS,
        CNSTR_CONTACT_PYRAMIDAL,
        CNSTR_CONTACT_ELLIPTIC,
    ];
    for k in kinds {
        assert!(seen[k as usize], "no fixture has rows of type {k}");
    }
    assert!(sparse_dual, "no fixture has a sparse efc_AR");
}

/// Loads the MJB of case `name` and runs `f` on the model and fresh data.
fn with_case(name: &str, f: impl FnOnce(&mut Model, &mut Data)) {
    let blob = std::fs::read(fixtures().join(format!("rows/{name}.mjb"))).unwrap();
    let header = mjb::read_header(&blob).unwrap();
    let mut mbuf = vec![0u8; header.model_bytes().unwrap()];
    let mut m = mjb::load(&blob, &mut mbuf).unwrap();
    let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = Data::new(&m, &mut dbuf).unwrap();
    f(&mut m, &mut d);
}

#[test]
fn sparse_coupling_of_two_wide_tendons_is_misallocated_as_in_mujoco() {
    // MuJoCo 3.1.6 counts two non-zeros for a coupling of two tendons and stops with "constraint
    // Jacobian mis-allocation" when their Jacobians have more together
    with_case("equality", |m, d| {
        m.opt.jacobian = JAC_SPARSE;
        io::reset_data_keyframe(m, d, 0);
        let err = forward::fwd_position(m, d).unwrap_err();
        assert!(
            matches!(err, mjrs_core::StepError::Numerical(w) if w.contains("mis-allocation")),
            "{err}"
        );
    });
}

#[test]
fn full_arena_warns_and_leaves_no_rows() {
    with_case("limits_beyond", |m, d| {
        io::reset_data_keyframe(m, d, 0);
        forward::fwd_position(m, d).unwrap();
        assert_eq!(d.nefc, 6);
        // leave room for the counting scratch but not for the rows
        mjrs_core::constraint::clear_efc(d);
        let free = d.arena.len() - d.arena.state.parena - d.arena.state.pstack;
        let held = d.arena.reserve::<u8>(free - 256).unwrap();
        mjrs_core::constraint::make_constraint(m, d).unwrap();
        d.arena.release(held);
        assert_eq!((d.nefc, d.ne, d.nf, d.nl), (0, 0, 0, 0));
        let w = d.warning[WARN_CNSTRFULL as usize];
        assert_eq!((w.number, w.lastinfo as usize), (1, d.arena.len()));
        assert!(d.arena.arrays().efc_type.is_empty());
        // with room again, the rows come back
        forward::fwd_position(m, d).unwrap();
        assert_eq!(d.nefc, 6);
    });
}

#[test]
fn islands_need_rows_and_cg_solves_them_one_by_one() {
    with_case("limits_beyond", |m, d| {
        m.opt.enableflags |= ENBL_ISLAND;
        // without rows there are no islands to make
        m.opt.disableflags |= DSBL_LIMIT;
        forward::fwd_position(m, d).unwrap();
        assert_eq!((d.nefc, d.nisland), (0, 0));
        m.opt.disableflags &= !DSBL_LIMIT;
        forward::fwd_position(m, d).unwrap();
        assert!(d.nisland > 0);
        // CG without noslip solves island by island, the other solvers all rows at once
        m.opt.noslip_iterations = 0;
        for (solver, solved) in [(SOL_CG, d.nisland), (SOL_NEWTON, 1), (SOL_PGS, 1)] {
            m.opt.solver = solver;
            mjrs_core::forward(m, d).unwrap();
            assert_eq!(d.solver_nisland, solved, "solver {solver}");
        }
    });
}

#[test]
fn disabled_groups_make_no_rows() {
    for (flag, left) in [
        (DSBL_CONSTRAINT, 0),
        (DSBL_EQUALITY, 0),
        (DSBL_LIMIT, 28),
        (DSBL_FRICTIONLOSS, 28),
    ] {
        with_case("equality", |m, d| {
            m.opt.disableflags |= flag;
            io::reset_data_keyframe(m, d, 0);
            forward::fwd_position(m, d).unwrap();
            assert_eq!(d.nefc, left, "flag {flag}");
        });
    }
}

#[test]
fn added_contacts_get_rows() {
    use mjrs_core::constraint::{add_contact, make_constraint};
    with_case("contacts", |m, d| {
        io::reset_data_keyframe(m, d, 0);
        forward::fwd_position(m, d).unwrap();
        assert_eq!((d.ncon, d.nefc), (12, 61));
        // a copy of the condim-3 ball contact: four more pyramid rows
        let con = d.arena.arrays().contact[1];
        assert_eq!(con.dim, 3);
        assert!(add_contact(m, d, &con));
        assert_eq!((d.ncon, d.nefc), (13, 0));
        assert_eq!(d.arena.arrays().contact[12], con);
        make_constraint(m, d).unwrap();
        assert_eq!(d.nefc, 65);
        assert_eq!(d.arena.arrays().contact[12].efc_address, 61);
        // no room left in the arena (rows dropped): refused with a warning
        mjrs_core::constraint::clear_efc(d);
        let free = d.arena.len() - d.arena.state.parena - d.arena.state.pstack;
        let held = d.arena.reserve::<u8>(free - 8).unwrap();
        assert!(!add_contact(m, d, &con));
        d.arena.release(held);
        let w = d.warning[WARN_CONTACTFULL as usize];
        assert_eq!((w.number, w.lastinfo, d.ncon), (1, 13, 13));
    });
}

#[test]
fn jacobian_products_agree_with_rows() {
    use mjrs_core::constraint::{mul_jac_t_vec, mul_jac_vec};
    for name in [
        "contacts",
        "contacts_sparse_pgs",
        "equality",
        "equality_sparse",
    ] {
        with_case(name, |m, d| {
            io::reset_data_keyframe(m, d, 0);
            forward::fwd_position(m, d).unwrap();
            forward::fwd_velocity(m, d).unwrap();
            let mut vel = vec![0.0; d.nefc];
            mul_jac_vec(m, d, &mut vel, d.qvel);
            assert_eq!(vel, d.arena.arrays().efc_vel[..d.nefc], "{name}");
            // <J v, w> = <v, J' w>
            let w: Vec<f64> = (0..d.nefc).map(|i| (i as f64 * 0.37).sin()).collect();
            let mut jtw = vec![0.0; m.nv];
            mul_jac_t_vec(m, d, &mut jtw, &w);
            let lhs: f64 = vel.iter().zip(&w).map(|(a, b)| a * b).sum();
            let rhs: f64 = d.qvel.iter().zip(&jtw).map(|(a, b)| a * b).sum();
            assert!(
                (lhs - rhs).abs() <= 1e-9 * lhs.abs().max(1.0),
                "{name}: {lhs} {rhs}"
            );
        });
    }
}
