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

/// The input side of the stage fixtures for one build (`mjrs_core` with `f64`, or
/// `mjrs_core_f32` with `f32`): JSON lists as numbers, and MuJoCo's Data before
/// `mj_fwdConstraint` loaded into a `Data`.
macro_rules! input_loader {
    ($core:ident, $real:ty) => {
        use serde_json::Value;
        use $core::arena::ArenaField;
        use $core::data::Contact;
        use $core::Data;

        pub fn nums(v: &Value) -> Vec<$real> {
            v.as_array()
                .unwrap_or_else(|| panic!("not an array: {v}"))
                .iter()
                .map(|x| x.as_f64().unwrap() as $real)
                .collect()
        }

        pub fn ints(v: &Value) -> Vec<i32> {
            v.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_i64().unwrap() as i32)
                .collect()
        }

        pub fn count(v: &Value, key: &str) -> usize {
            v[key].as_u64().unwrap() as usize
        }

        /// The contacts of a snapshot, from per-field arrays.
        pub fn contacts(c: &Value, ncon: usize) -> Vec<Contact> {
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
        pub fn load_input(d: &mut Data, input: &Value) {
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
            let int_field = |stack: &mut $core::Stack, field: ArenaField, name: &str| {
                let v = ints(&input[name]);
                stack
                    .push::<i32>(field as usize, v.len())
                    .unwrap()
                    .copy_from_slice(&v);
            };
            let num_field = |stack: &mut $core::Stack, field: ArenaField, name: &str| {
                let v = nums(&input[name]);
                stack
                    .push::<$real>(field as usize, v.len())
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
                .push::<$real>(F::efc_b as usize, nefc)
                .unwrap()
                .fill(0.0);
            stack
                .push::<$real>(F::efc_force as usize, nefc)
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
    };
}

mod input {
    input_loader!(mjrs_core, f64);
}

mod input_f32 {
    input_loader!(mjrs_core_f32, f32);
}

use input::{ints, load_input, nums};

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
    let niter = (d.solver_niter[0] as usize).min(mjrs_core::types::NSOLVER_STATS);
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

/// The f32 build on the same inputs (rounded to f32): `qacc` within `tol` of MuJoCo's relative to
/// its largest element. CG stops once its cost no longer decreases in f32, which is far from
/// the f64 solution on stiff problems (stiff equality constraints: 2e-2), so it gets a looser
/// bound than PGS and Newton.
#[test]
fn f32_solver_stays_close() {
    use mjrs_core_f32::{mjb, Data};
    let mut failures = Vec::new();
    for name in cases() {
        let blob = std::fs::read(dir().join(format!("{name}.mjb"))).unwrap();
        let mut mbuf = vec![0u8; mjb::read_header(&blob).unwrap().model_bytes().unwrap()];
        let m = mjb::load(&blob, &mut mbuf).unwrap();
        let tol = if m.opt.solver == mjrs_core::types::SOL_CG {
            5e-2
        } else {
            2e-3
        };
        let text = std::fs::read_to_string(dir().join(format!("{name}.stage.json"))).unwrap();
        let fixture: Value = serde_json::from_str(&text).unwrap();
        for snap in fixture["snapshots"].as_array().unwrap() {
            let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
            let mut d = Data::new(&m, &mut dbuf).unwrap();
            input_f32::load_input(&mut d, &snap["input"]);
            mjrs_core_f32::solver::fwd_constraint_solve(&m, &mut d)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            let theirs = nums(&snap["output"]["qacc"]);
            let scale = theirs.iter().fold(1.0f64, |s, x| s.max(x.abs()));
            let ours: Vec<f64> = d.qacc.iter().map(|&x| f64::from(x)).collect();
            let err = max_diff(&ours, &theirs) / scale;
            if err.is_nan() || err > tol {
                failures.push(format!("{name} step {}: qacc {err:.1e}", snap["steps"]));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ------------------------------------------------------------------------------------------------
// hand-made problems and properties

/// A deterministic pseudo-random sequence in [-1, 1).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
}

/// A model and data to borrow scratch memory from.
fn with_scratch(f: impl FnOnce(&mut mjrs_core::Stack)) {
    let blob = std::fs::read(dir().join("limits_newton.mjb")).unwrap();
    let mut mbuf = vec![0u8; mjb::read_header(&blob).unwrap().model_bytes().unwrap()];
    let m = mjb::load(&blob, &mut mbuf).unwrap();
    let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = Data::new(&m, &mut dbuf).unwrap();
    d.with_stack(|_, stack| f(stack));
}

/// A sparse `nr x nc` matrix (about a third non-zero) in compressed rows, and its dense form.
struct SparseMat {
    dense: Vec<f64>,
    values: Vec<f64>,
    rownnz: Vec<i32>,
    rowadr: Vec<i32>,
    colind: Vec<i32>,
}

fn sparse_from_dense(dense: &[f64], nr: usize, nc: usize) -> SparseMat {
    let (mut values, mut rownnz, mut rowadr, mut colind) = (vec![], vec![], vec![], vec![]);
    for r in 0..nr {
        rowadr.push(values.len() as i32);
        let before = values.len();
        for c in 0..nc {
            if dense[r * nc + c] != 0.0 {
                values.push(dense[r * nc + c]);
                colind.push(c as i32);
            }
        }
        rownnz.push((values.len() - before) as i32);
    }
    SparseMat {
        dense: dense.to_vec(),
        values,
        rownnz,
        rowadr,
        colind,
    }
}

fn random_sparse(rng: &mut Lcg, nr: usize, nc: usize) -> SparseMat {
    let dense: Vec<f64> = (0..nr * nc)
        .map(|_| {
            let x = rng.next();
            if x.abs() < 0.35 {
                x * 3.0
            } else {
                0.0
            }
        })
        .collect();
    sparse_from_dense(&dense, nr, nc)
}

fn transpose(a: &[f64], nr: usize, nc: usize) -> Vec<f64> {
    (0..nc * nr).map(|k| a[(k % nr) * nc + k / nr]).collect()
}

#[test]
fn sparse_square_matches_dense_square() {
    use mjrs_core::solver::sparse::{sqr_mat_td_sparse, sqr_mat_td_uncompressed_init};
    let mut rng = Lcg(7);
    let (nr, nc) = (9, 12);
    let j = random_sparse(&mut rng, nr, nc);
    let jt = sparse_from_dense(&transpose(&j.dense, nr, nc), nc, nr);
    let diag: Vec<f64> = (0..nr)
        .map(|i| if i % 4 == 3 { 0.0 } else { 1.0 + rng.next() })
        .collect();

    let mut dense = vec![0.0; nc * nc];
    mjrs_core::math::mat::sqr_mat_td(&mut dense, &j.dense, Some(&diag), nr, nc);

    let (mut res, mut rownnz, mut rowadr, mut colind) = (
        vec![0.0; nc * nc],
        vec![0; nc],
        vec![0; nc],
        vec![0; nc * nc],
    );
    sqr_mat_td_uncompressed_init(&mut rowadr, nc);
    with_scratch(|stack| {
        sqr_mat_td_sparse(
            &mut res,
            &j.values,
            &jt.values,
            Some(&diag),
            nc,
            &mut rownnz,
            &rowadr,
            &mut colind,
            &j.rownnz,
            &j.rowadr,
            &j.colind,
            &jt.rownnz,
            &jt.rowadr,
            &jt.colind,
            None,
            stack,
        )
        .unwrap();
    });
    for r in 0..nc {
        let mut row = vec![0.0; nc];
        for k in 0..rownnz[r] as usize {
            let adr = rowadr[r] as usize + k;
            row[colind[adr] as usize] = res[adr];
        }
        // the same products summed in the same order: equal bit for bit
        assert_eq!(row, dense[r * nc..(r + 1) * nc], "row {r}");
    }
}

#[test]
fn sparse_cholesky_solves_and_updates_like_dense() {
    use mjrs_core::math::chol::{chol_factor, chol_solve, chol_update};
    use mjrs_core::solver::sparse::{
        chol_factor_sparse, chol_solve_sparse, chol_update_sparse, compress_sparse,
    };
    let mut rng = Lcg(11);
    let n = 10;
    // A = B'B + I with a sparse B: symmetric positive definite with a sparse pattern
    let b = random_sparse(&mut rng, 6, n);
    let mut a = vec![0.0; n * n];
    mjrs_core::math::mat::sqr_mat_td(&mut a, &b.dense, None, 6, n);
    for i in 0..n {
        a[i * (n + 1)] += 1.0;
    }

    // uncompressed sparse copy with every stored element of the full pattern
    let (mut h, mut rownnz, mut rowadr, mut colind) =
        (vec![0.0; n * n], vec![0; n], vec![0; n], vec![0; n * n]);
    for r in 0..n {
        rowadr[r] = (r * n) as i32;
        for c in 0..n {
            if a[r * n + c] != 0.0 {
                let adr = r * n + rownnz[r] as usize;
                h[adr] = a[r * n + c];
                colind[adr] = c as i32;
                rownnz[r] += 1;
            }
        }
    }
    let y: Vec<f64> = (0..n).map(|_| rng.next()).collect();
    let close = |u: &[f64], v: &[f64]| {
        u.iter()
            .zip(v)
            .all(|(p, q)| (p - q).abs() <= 1e-12 * (1.0 + q.abs()))
    };

    with_scratch(|stack| {
        let rank =
            chol_factor_sparse(&mut h, n, 1e-15, &mut rownnz, &rowadr, &mut colind, stack).unwrap();
        assert_eq!(rank, n);
        compress_sparse(&mut h, n, &rownnz, &mut rowadr, &mut colind);

        let mut l = a.clone();
        chol_factor(&mut l, n, 1e-15);
        let (mut xs, mut xd) = (vec![0.0; n], vec![0.0; n]);
        chol_solve_sparse(&mut xs, &h, &y, n, &rownnz, &rowadr, &colind);
        chol_solve(&mut xd, &l, &y, n);
        assert!(close(&xs, &xd), "solve: {xs:?} vs {xd:?}");

        // rank-one update with a row of B (a pattern already in the factor's)
        let row = 2;
        let (adr, nnz) = (b.rowadr[row] as usize, b.rownnz[row] as usize);
        let mut x = vec![0.0; n];
        let mut x_ind = vec![0; n];
        x[..nnz].copy_from_slice(&b.values[adr..adr + nnz]);
        x_ind[..nnz].copy_from_slice(&b.colind[adr..adr + nnz]);
        let rank = chol_update_sparse(
            &mut h,
            &mut x,
            n,
            true,
            &rownnz,
            &rowadr,
            &mut colind,
            nnz,
            &mut x_ind,
            stack,
        )
        .unwrap();
        assert_eq!(rank, n);
        let mut xdense = b.dense[row * n..(row + 1) * n].to_vec();
        chol_update(&mut l, &mut xdense, n, true);
        chol_solve_sparse(&mut xs, &h, &y, n, &rownnz, &rowadr, &colind);
        chol_solve(&mut xd, &l, &y, n);
        assert!(close(&xs, &xd), "update: {xs:?} vs {xd:?}");
    });
}

/// Runs the solver of `solver` on the first snapshot of a stage case with `iterations` and
/// `tolerance`, returning `qacc` and `efc_force`.
fn solve_with(name: &str, solver: i32, iterations: i32, tolerance: f64) -> (Vec<f64>, Vec<f64>) {
    let blob = std::fs::read(dir().join(format!("{name}.mjb"))).unwrap();
    let mut mbuf = vec![0u8; mjb::read_header(&blob).unwrap().model_bytes().unwrap()];
    let mut m = mjb::load(&blob, &mut mbuf).unwrap();
    m.opt.solver = solver;
    m.opt.iterations = iterations;
    m.opt.tolerance = tolerance;
    let text = std::fs::read_to_string(dir().join(format!("{name}.stage.json"))).unwrap();
    let fixture: Value = serde_json::from_str(&text).unwrap();
    let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = Data::new(&m, &mut dbuf).unwrap();
    load_input(&mut d, &fixture["snapshots"][1]["input"]);
    mjrs_core::solver::fwd_constraint_solve(&m, &mut d).unwrap();
    (d.qacc.to_vec(), d.arena.arrays().efc_force.to_vec())
}

#[test]
fn pgs_cg_and_newton_agree_at_convergence() {
    use mjrs_core::types::{SOL_CG, SOL_NEWTON, SOL_PGS};
    // the PGS cases carry efc_AR, which PGS needs
    for name in [
        "limits_pgs",
        "equality_pgs",
        "contacts_pgs",
        "contacts_pgs_elliptic",
    ] {
        let (newton, fn_) = solve_with(name, SOL_NEWTON, 200, 1e-14);
        let (cg, fc) = solve_with(name, SOL_CG, 2000, 1e-14);
        let (pgs, fp) = solve_with(name, SOL_PGS, 5000, 1e-16);
        let scale = newton.iter().fold(1.0f64, |s, x| s.max(x.abs()));
        let diff = |a: &[f64], b: &[f64]| {
            a.iter()
                .zip(b)
                .fold(0.0f64, |s, (x, y)| s.max((x - y).abs()))
        };
        assert!(
            diff(&newton, &cg) < 1e-6 * scale,
            "{name}: CG {:e}",
            diff(&newton, &cg)
        );
        assert!(
            diff(&newton, &pgs) < 1e-4 * scale,
            "{name}: PGS {:e}",
            diff(&newton, &pgs)
        );
        let fscale = fn_.iter().fold(1.0f64, |s, x| s.max(x.abs()));
        assert!(diff(&fn_, &fc) < 1e-5 * fscale, "{name}: CG forces");
        assert!(diff(&fn_, &fp) < 1e-3 * fscale, "{name}: PGS forces");
    }
}

#[test]
fn forces_are_feasible() {
    use mjrs_core::types::*;
    for name in cases() {
        for snap in serde_json::from_str::<Value>(
            &std::fs::read_to_string(dir().join(format!("{name}.stage.json"))).unwrap(),
        )
        .unwrap()["snapshots"]
            .as_array()
            .unwrap()
        {
            let (inp, out) = (&snap["input"], &snap["output"]);
            let blob = std::fs::read(dir().join(format!("{name}.mjb"))).unwrap();
            let mut mbuf = vec![0u8; mjb::read_header(&blob).unwrap().model_bytes().unwrap()];
            let m = mjb::load(&blob, &mut mbuf).unwrap();
            let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
            let mut d = Data::new(&m, &mut dbuf).unwrap();
            load_input(&mut d, inp);
            mjrs_core::solver::fwd_constraint_solve(&m, &mut d).unwrap();
            let a = d.arena.arrays();
            let (ne, nf) = (d.ne, d.nf);
            let mut i = ne + nf;
            for k in ne..ne + nf {
                assert!(a.efc_force[k].abs() <= a.efc_frictionloss[k] * (1.0 + 1e-12));
            }
            while i < d.nefc {
                if a.efc_type[i] == CNSTR_CONTACT_ELLIPTIC {
                    let c = &a.contact[a.efc_id[i] as usize];
                    let dim = c.dim as usize;
                    let f = &a.efc_force[i..i + dim];
                    // inside the friction cone: |f_t / friction| <= f_n / mu (PGS exactly,
                    // primal solvers up to their tolerance)
                    let t: f64 = (1..dim).map(|j| (f[j] / c.friction[j - 1]).powi(2)).sum();
                    assert!(f[0] >= 0.0, "{name}: negative normal force");
                    assert!(
                        t.sqrt() <= f[0] / c.mu * (1.0 + 1e-6) + 1e-9,
                        "{name}: outside cone"
                    );
                    i += dim;
                } else {
                    assert!(a.efc_force[i] >= 0.0, "{name}: negative force");
                    i += 1;
                }
            }
            let _ = out;
        }
    }
}

#[test]
fn incomplete_rows_and_islands_are_errors() {
    let blob = std::fs::read(dir().join("limits_newton.mjb")).unwrap();
    let mut mbuf = vec![0u8; mjb::read_header(&blob).unwrap().model_bytes().unwrap()];
    let mut m = mjb::load(&blob, &mut mbuf).unwrap();
    let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = Data::new(&m, &mut dbuf).unwrap();
    // rows announced but never made
    d.nefc = 3;
    let err = mjrs_core::solver::fwd_constraint_solve(&m, &mut d).unwrap_err();
    assert!(matches!(err, mjrs_core::StepError::Unsupported(_)), "{err}");
    // PGS without efc_AR
    let text = std::fs::read_to_string(dir().join("limits_newton.stage.json")).unwrap();
    let fixture: Value = serde_json::from_str(&text).unwrap();
    load_input(&mut d, &fixture["snapshots"][0]["input"]);
    m.opt.solver = mjrs_core::types::SOL_PGS;
    assert!(mjrs_core::solver::fwd_constraint_solve(&m, &mut d).is_err());
    // CG island by island, with islands announced but never made
    m.opt.solver = mjrs_core::types::SOL_CG;
    m.opt.enableflags |= mjrs_core::types::ENBL_ISLAND;
    d.nisland = 2;
    let err = mjrs_core::solver::fwd_constraint_solve(&m, &mut d).unwrap_err();
    assert_eq!(
        err.to_string(),
        "not supported by mjrs yet: island arrays that do not match the constraint rows"
    );
    m.opt.enableflags = 0;
    m.opt.solver = mjrs_core::types::SOL_NEWTON;
    mjrs_core::solver::fwd_constraint_solve(&m, &mut d).unwrap();

    // elliptic rows whose contact has a bad dimension: an error, not an endless walk
    let blob = std::fs::read(dir().join("contacts_newton_elliptic.mjb")).unwrap();
    let mut mbuf = vec![0u8; mjb::read_header(&blob).unwrap().model_bytes().unwrap()];
    let m = mjb::load(&blob, &mut mbuf).unwrap();
    let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = Data::new(&m, &mut dbuf).unwrap();
    let text = std::fs::read_to_string(dir().join("contacts_newton_elliptic.stage.json")).unwrap();
    let fixture: Value = serde_json::from_str(&text).unwrap();
    load_input(&mut d, &fixture["snapshots"][0]["input"]);
    for c in d.arena.arrays_mut().contact.iter_mut() {
        c.dim = 0;
    }
    assert!(mjrs_core::solver::fwd_constraint_solve(&m, &mut d).is_err());
}

#[test]
fn every_solver_writes_all_of_qfrc_constraint() {
    // The warmstart leaves `qfrc_constraint` to the solver that follows, which writes it whole;
    // CG by islands writes the islands' dofs and zeroes the others: whatever the solve finds
    // there (here NaN), it ends with J' efc_force on every dof, zero on the dofs of no island.
    use mjrs_core::types::{ENBL_ISLAND, SOL_CG, SOL_NEWTON, SOL_PGS};
    let mut owned = mjrs_tests::compile_model("island_cg.xml");
    let mut m = owned.view();
    assert!(!mjrs_core::support::is_sparse(&m));
    let nv = m.nv;
    for (solver, islands) in [
        (SOL_CG, true),
        (SOL_CG, false),
        (SOL_NEWTON, true),
        (SOL_PGS, true),
    ] {
        m.opt.solver = solver;
        m.opt.enableflags &= !ENBL_ISLAND;
        if islands {
            m.opt.enableflags |= ENBL_ISLAND;
        }
        let mut data = mjrs::simulate::new_data(&m, None).unwrap();
        let mut d = data.view();
        let mut outside = 0;
        for step in 0..100 {
            mjrs_core::forward(&m, &mut d).unwrap();
            if d.nefc > 0 {
                d.qfrc_constraint.fill(f64::NAN);
                mjrs_core::solver::fwd_constraint_solve(&m, &mut d).unwrap();
            }
            let a = d.arena.arrays();
            for i in 0..nv {
                let jtf: f64 = (0..d.nefc)
                    .map(|r| a.efc_J[r * nv + i] * a.efc_force[r])
                    .sum();
                let got = d.qfrc_constraint[i];
                assert!(
                    (got - jtf).abs() <= 1e-9 * (1.0 + jtf.abs()),
                    "solver {solver}, islands {islands}, step {step}, dof {i}: {got} against {jtf}"
                );
            }
            if islands && d.nisland > 0 {
                outside += a.dof_island[..nv].iter().filter(|&&k| k < 0).count();
            }
            mjrs_core::step(&m, &mut d).unwrap();
        }
        // the case this test is for: dofs in no island while there are islands
        assert!(!islands || outside > 0, "solver {solver}");
    }
}

#[test]
fn the_warmstart_adds_nothing_to_the_stack_peak() {
    // CG and Newton take the warmstart's vectors (J qacc - aref, M qacc) as their own scratch,
    // allocated below it: the solve's stack peak is the same with the warmstart as without it
    // (up to alignment), not its 2 nefc + nv numbers more
    use mjrs_core::types::{DSBL_WARMSTART, SOL_PGS};
    let mut checked = 0;
    for name in cases() {
        let text = std::fs::read_to_string(dir().join(format!("{name}.stage.json"))).unwrap();
        let fixture: Value = serde_json::from_str(&text).unwrap();
        let blob = std::fs::read(dir().join(format!("{name}.mjb"))).unwrap();
        let mut mbuf = vec![0u8; mjb::read_header(&blob).unwrap().model_bytes().unwrap()];
        let mut m = mjb::load(&blob, &mut mbuf).unwrap();
        if m.opt.solver == SOL_PGS || m.opt.disableflags & DSBL_WARMSTART != 0 {
            continue;
        }
        let mut peak = |disable: i32| {
            m.opt.disableflags ^= disable;
            let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
            let mut d = Data::new(&m, &mut dbuf).unwrap();
            load_input(&mut d, &fixture["snapshots"][0]["input"]);
            let before = d.arena.state.maxuse_stack;
            mjrs_core::solver::fwd_constraint_solve(&m, &mut d).unwrap();
            m.opt.disableflags ^= disable;
            (d.arena.state.maxuse_stack, before, d.nefc, m.nv)
        };
        let (with, before, nefc, nv) = peak(0);
        let (without, _, _, _) = peak(DSBL_WARMSTART);
        let held = (2 * nefc + nv) * size_of::<f64>();
        assert!(
            with > before && held > 64,
            "{name}: a solve that uses the stack"
        );
        assert!(
            with <= without + 64,
            "{name}: {with} bytes against {without}"
        );
        checked += 1;
    }
    assert!(checked >= 10, "{checked} cases");
}
