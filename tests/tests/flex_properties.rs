//! Properties of flex kinematics on the flex fixtures (MuJoCo's MJB of
//! `tests/models/flexcore/*.xml`, contacts off) at random states, with proptest: the edge
//! Jacobian `flexedge_J`, dense or sparse, agrees with central finite differences of the edge
//! lengths `flexedge_length` along random directions, and `flexedge_velocity` is `J qvel`.

use mjrs_core::types::{DSBL_CONTACT, JAC_DENSE, JAC_SPARSE};
use mjrs_core::{io, support, Data, Model};
use mjrs_tests::fixtures;
use mjrs_tests::plugin_traj::load;
use proptest::prelude::*;

const MODELS: [&str; 6] = ["flex", "rope1d", "cloth2d", "box3d", "noncentered", "rigid"];

const CASES: u32 = 256;

/// `CASES` cases, or `PROPTEST_CASES` when set. The seed comes from `PROPTEST_RNG_SEED`, fixed
/// for the test command in `.cargo/config.toml`.
fn config() -> ProptestConfig {
    let mut config = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = CASES;
    }
    config
}

/// `flexedge_J` as a dense `nflexedge x nv` matrix.
fn dense_edge_jacobian(m: &Model, d: &Data) -> Vec<f64> {
    let nv = m.nv;
    if !support::is_sparse(m) {
        return d.flexedge_J[..m.nflexedge * nv].to_vec();
    }
    let mut out = vec![0.0; m.nflexedge * nv];
    for e in 0..m.nflexedge {
        let adr = d.flexedge_J_rowadr[e] as usize;
        for k in adr..adr + d.flexedge_J_rownnz[e] as usize {
            out[e * nv + d.flexedge_J_colind[k] as usize] = d.flexedge_J[k];
        }
    }
    out
}

/// Edge lengths at `q0` moved by `step * v`.
fn lengths_at(m: &Model, d: &mut Data, q0: &[f64], v: &[f64], step: f64) -> Vec<f64> {
    d.qpos.copy_from_slice(q0);
    support::integrate_pos(m, d.qpos, v, step);
    mjrs_core::forward(m, d).unwrap();
    d.flexedge_length.to_vec()
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn edge_jacobians_match_finite_differences(
        which in 0..MODELS.len(),
        sparse in any::<bool>(),
        dq in prop::collection::vec(-0.3..0.3f64, 1..16),
        dir in prop::collection::vec(-1.0..1.0f64, 1..16),
        qvel in prop::collection::vec(-1.0..1.0f64, 1..16),
    ) {
        let blob = std::fs::read(fixtures().join("flexcore").join(format!("{}.mjb", MODELS[which]))).unwrap();
        let mut buf = Vec::new();
        let mut m = load(&blob, &mut buf);
        m.opt.disableflags |= DSBL_CONTACT;
        m.opt.jacobian = if sparse { JAC_SPARSE } else { JAC_DENSE };
        let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
        let mut d = Data::new(&m, &mut dbuf).unwrap();
        io::reset_data(&m, &mut d);
        let nv = m.nv;
        let pick = |x: &[f64]| -> Vec<f64> { (0..nv).map(|k| x[k % x.len()] * (1.0 + (k % 3) as f64) / 3.0).collect() };
        // a random state: qpos0 moved along a random velocity, a random qvel
        let q0 = {
            let mut q = m.qpos0.to_vec();
            support::integrate_pos(&m, &mut q, &pick(&dq), 1.0);
            q
        };
        d.qpos.copy_from_slice(&q0);
        d.qvel.copy_from_slice(&pick(&qvel));
        mjrs_core::forward(&m, &mut d).unwrap();
        let jac = dense_edge_jacobian(&m, &d);
        let qv = d.qvel.to_vec();
        for e in 0..m.nflexedge {
            let pred: f64 = (0..nv).map(|k| jac[e * nv + k] * qv[k]).sum();
            let got = d.flexedge_velocity[e];
            prop_assert!((pred - got).abs() <= 1e-12 * (1.0 + pred.abs()), "edge {} velocity: {} vs {}", e, got, pred);
        }
        let v = pick(&dir);
        let eps = 1e-6;
        let plus = lengths_at(&m, &mut d, &q0, &v, eps);
        let minus = lengths_at(&m, &mut d, &q0, &v, -eps);
        for e in 0..m.nflexedge {
            let pred: f64 = (0..nv).map(|k| jac[e * nv + k] * v[k]).sum();
            let fd = (plus[e] - minus[e]) / (2.0 * eps);
            prop_assert!((pred - fd).abs() < 1e-6 * (1.0 + pred.abs()), "{} edge {}: J v = {} vs {}", MODELS[which], e, pred, fd);
        }
    }
}
