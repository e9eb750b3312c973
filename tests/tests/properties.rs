//! Properties of the pipeline on random models (a generator of valid MJCF: trees of bodies
//! with hinge, slide, ball and free joints, geoms of every primitive type, sites, fixed and
//! spatial tendons, connect/weld/joint/tendon equality constraints, actuators of several
//! transmissions, gains and dynamics, contacts) and random states, with proptest: the mass
//! matrix is symmetric positive definite and `mul_m` agrees with the dense matrix; body and
//! tendon Jacobians and the Jacobians of equality constraints agree with finite differences;
//! quaternions stay normalized; without damping and contacts, RK4 keeps the energy and a free
//! system without gravity its momentum; MJB save-load-save is byte-identical; compiling,
//! writing MJCF and compiling again gives the same model; the f32 build stays close to the
//! f64 build over short horizons. Large models (chains nested up to 490 deep, up to 3000
//! siblings) compile with the tree and names they were written with and step finitely.

use mjrs_alloc::OwnedModel;
use mjrs_core::{support, Data, Model};
use proptest::prelude::*;

#[derive(Clone, Debug)]
struct BodySpec {
    parent: usize,
    joint: usize,
    geom: usize,
    pos: [f64; 3],
    axis: [f64; 3],
    size: [f64; 3],
}

fn body_spec(max_parent: usize) -> impl Strategy<Value = BodySpec> {
    let v3 = |lo: f64, hi: f64| [lo..hi, lo..hi, lo..hi];
    (
        0..=max_parent,
        0..4usize,
        0..5usize,
        v3(-0.3, 0.3),
        v3(-1.0, 1.0),
        v3(0.03, 0.15),
    )
        .prop_map(|(parent, joint, geom, pos, axis, size)| BodySpec {
            parent,
            joint,
            geom,
            pos,
            // an axis the compiler accepts: away from zero length
            axis: if axis.iter().map(|a| a * a).sum::<f64>() < 0.01 {
                [0.0, 0.0, 1.0]
            } else {
                axis
            },
            size,
        })
}

/// Up to six bodies, each attached to an earlier one (index 0 is the world).
fn tree() -> impl Strategy<Value = Vec<BodySpec>> {
    (1..=6usize).prop_flat_map(|n| (0..n).map(body_spec).collect::<Vec<_>>())
}

/// A tendon: fixed on scalar joints (indices into the model's hinge and slide joints, taken
/// modulo their count) with coefficients, or spatial between the sites of two bodies.
#[derive(Clone, Debug)]
enum TendonSpec {
    Fixed(Vec<(usize, f64)>),
    Spatial(usize, usize),
}

/// An equality constraint: `kind` 0 connect, 1 weld (bodies `a`, `b`), 2 joint (scalar joints
/// `a`, `b`, polynomial `x`), 3 tendon (tendons `a`, `b`); indices modulo what exists.
#[derive(Clone, Debug)]
struct EqSpec {
    kind: usize,
    a: usize,
    b: usize,
    x: [f64; 3],
}

/// An actuator: `kind` 0 motor, 1 position, 2 velocity, 3 intvelocity (an activation),
/// 4 general with a filter, 5 motor on a tendon, 6 position on a tendon; `target` modulo the
/// scalar joints or the tendons.
#[derive(Clone, Debug)]
struct ActSpec {
    kind: usize,
    target: usize,
    gain: f64,
}

/// A random model: a tree and what may be attached to it.
#[derive(Clone, Debug)]
struct ModelSpec {
    bodies: Vec<BodySpec>,
    tendons: Vec<TendonSpec>,
    equalities: Vec<EqSpec>,
    actuators: Vec<ActSpec>,
}

/// Which parts of a [`ModelSpec`] go into its MJCF (the tree always does).
#[derive(Clone, Copy)]
struct Parts {
    actuators: bool,
    tendons: bool,
    equalities: bool,
}

const TREE: Parts = Parts {
    actuators: false,
    tendons: false,
    equalities: false,
};
const ALL: Parts = Parts {
    actuators: true,
    tendons: true,
    equalities: true,
};

fn model() -> impl Strategy<Value = ModelSpec> {
    let tendon = prop_oneof![
        prop::collection::vec((0..16usize, -2.0..2.0f64), 1..4).prop_map(TendonSpec::Fixed),
        (0..16usize, 0..16usize).prop_map(|(a, b)| TendonSpec::Spatial(a, b)),
    ];
    let equality = (
        0..4usize,
        0..16usize,
        0..16usize,
        [-0.1..0.1f64, -0.1..0.1, -0.1..0.1],
    )
        .prop_map(|(kind, a, b, x)| EqSpec { kind, a, b, x });
    let actuator = (0..7usize, 0..16usize, 0.1..3.0f64).prop_map(|(kind, target, gain)| ActSpec {
        kind,
        target,
        gain,
    });
    (
        tree(),
        prop::collection::vec(tendon, 0..4),
        prop::collection::vec(equality, 0..4),
        prop::collection::vec(actuator, 0..5),
    )
        .prop_map(|(bodies, tendons, equalities, actuators)| ModelSpec {
            bodies,
            tendons,
            equalities,
            actuators,
        })
}

/// `spec` with every joint listed once per fixed tendon (the first listing kept): MuJoCo's
/// dense tendon Jacobian keeps only the last coefficient of a repeated joint while the length
/// sums them all, so such a tendon's Jacobian is not the derivative of its length (mjrs matches
/// MuJoCo; `tests/tests/defects.rs` covers repeats).
fn without_repeated_joints(spec: &ModelSpec) -> ModelSpec {
    let nscalar = spec.bodies.iter().filter(|b| b.joint < 2).count().max(1);
    let mut spec = spec.clone();
    for t in &mut spec.tendons {
        if let TendonSpec::Fixed(joints) = t {
            let mut seen = Vec::new();
            joints.retain(|(j, _)| {
                let first = !seen.contains(&(j % nscalar));
                seen.push(j % nscalar);
                first
            });
        }
    }
    spec
}

/// A model of the tree alone.
fn tree_model() -> impl Strategy<Value = ModelSpec> {
    tree().prop_map(|bodies| ModelSpec {
        bodies,
        tendons: Vec::new(),
        equalities: Vec::new(),
        actuators: Vec::new(),
    })
}

/// The MJCF of a model: free joints only directly under the world, a site on every body (and
/// one in the world); `options` goes in `<option>`, `contype` on every geom; of the tendons,
/// equalities and actuators, the `parts` asked for.
fn mjcf(spec: &ModelSpec, options: &str, contype: u8, parts: Parts) -> String {
    let bodies = &spec.bodies;
    let f = |v: &[f64; 3]| format!("{} {} {}", v[0], v[1], v[2]);
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); bodies.len() + 1];
    for (i, b) in bodies.iter().enumerate() {
        children[b.parent.min(i)].push(i + 1);
    }
    fn body(
        i: usize,
        bodies: &[BodySpec],
        children: &[Vec<usize>],
        f: &dyn Fn(&[f64; 3]) -> String,
        contype: u8,
        out: &mut String,
    ) {
        let b = &bodies[i - 1];
        let joint = match (b.joint, b.parent.min(i - 1)) {
            (0, _) => format!(
                "<joint name=\"j{i}\" type=\"hinge\" axis=\"{}\"/>",
                f(&b.axis)
            ),
            (1, _) => format!(
                "<joint name=\"j{i}\" type=\"slide\" axis=\"{}\"/>",
                f(&b.axis)
            ),
            (2, _) => format!("<joint name=\"j{i}\" type=\"ball\"/>"),
            (_, 0) => format!("<joint name=\"j{i}\" type=\"free\"/>"),
            _ => format!("<joint name=\"j{i}\" type=\"ball\"/>"),
        };
        let s = &b.size;
        let geom = match b.geom {
            0 => format!("type=\"sphere\" size=\"{}\"", s[0]),
            1 => format!("type=\"capsule\" size=\"{} {}\"", s[0], s[1]),
            2 => format!("type=\"box\" size=\"{}\"", f(s)),
            3 => format!("type=\"cylinder\" size=\"{} {}\"", s[0], s[1]),
            _ => format!("type=\"ellipsoid\" size=\"{}\"", f(s)),
        };
        out.push_str(&format!(
            "<body name=\"b{i}\" pos=\"{}\">{joint}<geom {geom} pos=\"0.05 0 0\" contype=\"{contype}\" conaffinity=\"{contype}\"/><site name=\"s{i}\" pos=\"0 0.03 0.02\"/>",
            f(&b.pos)
        ));
        for &c in &children[i] {
            body(c, bodies, children, f, contype, out);
        }
        out.push_str("</body>");
    }
    let mut world = String::from("<site name=\"s0\" pos=\"0.1 -0.1 0.2\"/>");
    for &c in &children[0] {
        body(c, bodies, &children, &f, contype, &mut world);
    }
    // names of the hinge and slide joints, the targets of fixed tendons and joint actuators
    let scalar: Vec<String> = (0..bodies.len())
        .filter(|&i| bodies[i].joint < 2)
        .map(|i| format!("j{}", i + 1))
        .collect();
    let tendons = if parts.tendons {
        tendons_xml(spec, &scalar)
    } else {
        Vec::new()
    };
    let equalities = if parts.equalities {
        equalities_xml(spec, &scalar, tendons.len())
    } else {
        String::new()
    };
    let actuators = if parts.actuators {
        actuators_xml(spec, &scalar, tendons.len())
    } else {
        String::new()
    };
    format!(
        "<mujoco><option {options}/><worldbody>{world}</worldbody><tendon>{}</tendon>\
         <equality>{equalities}</equality><actuator>{actuators}</actuator></mujoco>",
        tendons.concat()
    )
}

/// The tendons of `spec` that the tree can hold, named `t0`, `t1`...
fn tendons_xml(spec: &ModelSpec, scalar: &[String]) -> Vec<String> {
    let n = spec.bodies.len();
    let mut out = Vec::new();
    for t in &spec.tendons {
        let name = format!("t{}", out.len());
        match t {
            TendonSpec::Fixed(joints) if !scalar.is_empty() => {
                let body: String = joints
                    .iter()
                    .map(|(j, c)| {
                        format!(
                            "<joint joint=\"{}\" coef=\"{c}\"/>",
                            scalar[j % scalar.len()]
                        )
                    })
                    .collect();
                out.push(format!("<fixed name=\"{name}\">{body}</fixed>"));
            }
            TendonSpec::Spatial(a, b) => {
                // two different sites (0 is the world's), so the length is never zero
                let a = a % (n + 1);
                let b = (a + 1 + b % n) % (n + 1);
                out.push(format!(
                    "<spatial name=\"{name}\"><site site=\"s{a}\"/><site site=\"s{b}\"/></spatial>"
                ));
            }
            TendonSpec::Fixed(_) => {}
        }
    }
    out
}

/// The equality constraints of `spec` that the model can hold.
fn equalities_xml(spec: &ModelSpec, scalar: &[String], ntendon: usize) -> String {
    let n = spec.bodies.len();
    let mut out = String::new();
    for e in &spec.equalities {
        let (a, b) = (1 + e.a % n, e.b % (n + 1));
        let body2 = if b == a || b == 0 {
            "world".to_string()
        } else {
            format!("b{b}")
        };
        let x = &e.x;
        match e.kind {
            0 => out.push_str(&format!(
                "<connect body1=\"b{a}\" body2=\"{body2}\" anchor=\"{} {} {}\"/>",
                x[0], x[1], x[2]
            )),
            1 => out.push_str(&format!("<weld body1=\"b{a}\" body2=\"{body2}\"/>")),
            2 if !scalar.is_empty() => {
                let (j1, j2) = (e.a % scalar.len(), e.b % scalar.len());
                let second = if j1 == j2 {
                    String::new()
                } else {
                    format!(" joint2=\"{}\"", scalar[j2])
                };
                out.push_str(&format!(
                    "<joint joint1=\"{}\"{second} polycoef=\"{} {} {} 0 0\"/>",
                    scalar[j1],
                    x[0],
                    10.0 * x[1],
                    10.0 * x[2]
                ));
            }
            3 if ntendon > 0 => {
                let (t1, t2) = (e.a % ntendon, e.b % ntendon);
                let second = if t1 == t2 {
                    String::new()
                } else {
                    format!(" tendon2=\"t{t2}\"")
                };
                out.push_str(&format!(
                    "<tendon tendon1=\"t{t1}\"{second} polycoef=\"{} {} 0 0 0\"/>",
                    x[0],
                    10.0 * x[1]
                ));
            }
            _ => {}
        }
    }
    out
}

/// The actuators of `spec` that have a target in the model.
fn actuators_xml(spec: &ModelSpec, scalar: &[String], ntendon: usize) -> String {
    let mut out = String::new();
    for a in &spec.actuators {
        let g = a.gain;
        let joint = |tag: &str, extra: String| match scalar.len() {
            0 => String::new(),
            k => format!("<{tag} joint=\"{}\"{extra}/>", scalar[a.target % k]),
        };
        let tendon = |tag: &str, extra: String| match ntendon {
            0 => String::new(),
            k => format!("<{tag} tendon=\"t{}\"{extra}/>", a.target % k),
        };
        out.push_str(&match a.kind {
            0 => joint("motor", format!(" gear=\"{g}\"")),
            1 => joint("position", format!(" kp=\"{g}\"")),
            2 => joint("velocity", format!(" kv=\"{}\"", 0.1 * g)),
            3 => joint("intvelocity", format!(" kp=\"{g}\" actrange=\"-1 1\"")),
            4 => joint(
                "general",
                format!(" dyntype=\"filter\" dynprm=\"0.05\" gainprm=\"{g}\""),
            ),
            5 => tendon("motor", format!(" gear=\"{g}\"")),
            _ => tendon("position", format!(" kp=\"{g}\"")),
        });
    }
    out
}

fn compile(xml: &str) -> OwnedModel {
    mjrs_xml::compile_str(xml, "random.xml", "", None)
        .unwrap_or_else(|e| panic!("{e}\n{xml}"))
        .model
}

/// A data at a random configuration: qpos0 moved along `dq` (scaled), velocities `v`.
fn state(m: &Model, d: &mut Data, dq: &[f64], v: &[f64]) {
    d.qpos.copy_from_slice(&m.qpos0);
    let step: Vec<f64> = (0..m.nv).map(|k| dq[k % dq.len()]).collect();
    support::integrate_pos(m, d.qpos, &step, 1.0);
    for k in 0..m.nv {
        d.qvel[k] = v[k % v.len()];
    }
}

/// The compiled model and a data at [`state`], after a forward pass.
fn at_state(xml: &str, dq: &[f64], v: &[f64]) -> (OwnedModel, mjrs_alloc::OwnedData) {
    let mut owned = compile(xml);
    let m = owned.view();
    let mut data = mjrs::simulate::new_data(&m, None).unwrap();
    let mut d = data.view();
    state(&m, &mut d, dq, v);
    mjrs_core::forward(&m, &mut d).unwrap();
    drop(d);
    drop(m);
    (owned, data)
}

fn dense_m(m: &Model, d: &Data) -> Vec<f64> {
    let mut full = vec![0.0; m.nv * m.nv];
    support::full_m(m, &mut full, d.qM);
    full
}

/// Cholesky of a dense symmetric matrix: whether every pivot is positive.
fn positive_definite(a: &[f64], n: usize) -> bool {
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let s: f64 = (0..j).map(|k| l[i * n + k] * l[j * n + k]).sum();
            if i == j {
                let p = a[i * n + i] - s;
                if p.is_nan() || p <= 0.0 {
                    return false;
                }
                l[i * n + i] = p.sqrt();
            } else {
                l[i * n + j] = (a[i * n + j] - s) / l[j * n + j];
            }
        }
    }
    true
}

/// The rows of the equality constraints whose position error is a function of `qpos` that the
/// row's Jacobian differentiates (connect, joint, tendon, and a weld's three translation rows):
/// (row, efc_pos, dense Jacobian row).
fn equality_rows(m: &Model, d: &Data) -> Vec<(usize, f64, Vec<f64>)> {
    use mjrs_core::types::{CNSTR_EQUALITY, EQ_WELD};
    let a = d.arena.arrays();
    let mut rows = Vec::new();
    let mut first_of = None;
    for r in 0..d.ne {
        assert_eq!(a.efc_type[r], CNSTR_EQUALITY);
        let id = a.efc_id[r] as usize;
        let start = match first_of {
            Some((i, start)) if i == id => start,
            _ => r,
        };
        first_of = Some((id, start));
        if m.eq_type[id] == EQ_WELD && r - start >= 3 {
            continue;
        }
        rows.push((r, a.efc_pos[r], a.efc_J[r * m.nv..(r + 1) * m.nv].to_vec()));
    }
    rows
}

/// 50 control steps of the f64 build from rest at `qpos0` with velocities `v`: the final
/// `qpos` and `qvel`, the initial `qvel`, and whether the divergence check fired.
fn run_f64(m: &Model, v: &[f64]) -> (Vec<f64>, Vec<f64>, bool) {
    let mut data = mjrs::simulate::new_data(m, None).unwrap();
    let mut d = data.view();
    state(m, &mut d, &[0.0], v);
    let v0 = d.qvel.to_vec();
    mjrs::stepping::run_control(m, &mut d, 50).unwrap();
    let end = d.qpos.iter().chain(d.qvel.iter()).copied().collect();
    (end, v0, diverged(|w| d.warning[w].number))
}

/// Whether MuJoCo's divergence check fired: a warning for bad `qpos`, `qvel` or `qacc`.
/// `count(w)` is how often warning `w` was raised (the f64 and f32 builds have their own types).
fn diverged(count: impl Fn(usize) -> i32) -> bool {
    use mjrs_core::types::{WARN_BADQACC, WARN_BADQPOS, WARN_BADQVEL};
    [WARN_BADQPOS, WARN_BADQVEL, WARN_BADQACC]
        .iter()
        .any(|&w| count(w as usize) > 0)
}

const CASES: u32 = 256;

/// `CASES` cases, or `PROPTEST_CASES` when set (`tests/explore-properties.sh`). The seed comes
/// from `PROPTEST_RNG_SEED`, fixed for the test command in `.cargo/config.toml`.
fn config() -> ProptestConfig {
    let mut config = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = CASES;
    }
    config
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn mass_matrix_is_spd_and_mul_m_agrees(spec in model(), dq in prop::collection::vec(-1.0..1.0f64, 1..8),
                                          x in prop::collection::vec(-2.0..2.0f64, 1..8)) {
        let (mut owned, mut data) = at_state(&mjcf(&spec, "", 1, ALL), &dq, &[0.0]);
        let m = owned.view();
        let d = data.view();
        let n = m.nv;
        let full = dense_m(&m, &d);
        for i in 0..n {
            for j in 0..n {
                prop_assert_eq!(full[i * n + j], full[j * n + i]);
            }
        }
        prop_assert!(positive_definite(&full, n));
        let vec: Vec<f64> = (0..n).map(|k| x[k % x.len()]).collect();
        let mut res = vec![0.0; n];
        support::mul_m(&m, &d, &mut res, &vec);
        for i in 0..n {
            let dense: f64 = (0..n).map(|j| full[i * n + j] * vec[j]).sum();
            prop_assert!((dense - res[i]).abs() <= 1e-12 * (1.0 + dense.abs()), "{} vs {}", dense, res[i]);
        }
    }

    #[test]
    fn jacobians_match_finite_differences(spec in model(), dq in prop::collection::vec(-1.0..1.0f64, 1..8),
                                               dir in prop::collection::vec(-1.0..1.0f64, 1..8)) {
        let (mut owned, mut data) = at_state(&mjcf(&without_repeated_joints(&spec), "jacobian=\"dense\"", 1, ALL), &dq, &[0.0]);
        let m = owned.view();
        let mut d = data.view();
        let (n, eps) = (m.nv, 1e-7);
        let v: Vec<f64> = (0..n).map(|k| dir[k % dir.len()]).collect();
        let q0 = d.qpos.to_vec();
        let x0 = d.xpos.to_vec();
        let xmat0 = d.xmat.to_vec();
        let mut jacs = Vec::new();
        for b in 1..m.nbody {
            let (mut jp, mut jr) = (vec![0.0; 3 * n], vec![0.0; 3 * n]);
            support::jac_body(&m, &d, Some(&mut jp), Some(&mut jr), b);
            jacs.push((jp, jr));
        }
        let (ten_j, ten_length0) = (d.ten_J.to_vec(), d.ten_length.to_vec());
        let eq0 = equality_rows(&m, &d);
        support::integrate_pos(&m, d.qpos, &v, eps);
        mjrs_core::forward(&m, &mut d).unwrap();
        for t in 0..m.ntendon {
            let pred: f64 = (0..n).map(|k| ten_j[t * n + k] * v[k]).sum();
            let fd = (d.ten_length[t] - ten_length0[t]) / eps;
            prop_assert!((pred - fd).abs() < 1e-5 * (1.0 + pred.abs()), "tendon {}: {} vs {}", t, pred, fd);
        }
        let eq1 = equality_rows(&m, &d);
        prop_assert_eq!(eq0.len(), eq1.len());
        for ((row, pos0, jac), (_, pos1, _)) in eq0.iter().zip(&eq1) {
            let pred: f64 = (0..n).map(|k| jac[k] * v[k]).sum();
            let fd = (pos1 - pos0) / eps;
            prop_assert!((pred - fd).abs() < 1e-5 * (1.0 + pred.abs()), "equality row {}: {} vs {}", row, pred, fd);
        }
        for b in 1..m.nbody {
            let (jp, jr) = &jacs[b - 1];
            for r in 0..3 {
                let pred: f64 = (0..n).map(|k| jp[r * n + k] * v[k]).sum();
                let fd = (d.xpos[3 * b + r] - x0[3 * b + r]) / eps;
                prop_assert!((pred - fd).abs() < 1e-5 * (1.0 + pred.abs()), "body {} row {}: {} vs {}", b, r, pred, fd);
            }
            // angular velocity from the rotation change: w = vee(R1 R0^T - I) / eps
            let (r0, r1) = (&xmat0[9 * b..9 * b + 9], &d.xmat[9 * b..9 * b + 9]);
            let rr = |i: usize, j: usize| (0..3).map(|k| r1[3 * i + k] * r0[3 * j + k]).sum::<f64>();
            let w = [(rr(2, 1) - rr(1, 2)) / (2.0 * eps), (rr(0, 2) - rr(2, 0)) / (2.0 * eps), (rr(1, 0) - rr(0, 1)) / (2.0 * eps)];
            for r in 0..3 {
                let pred: f64 = (0..n).map(|k| jr[r * n + k] * v[k]).sum();
                prop_assert!((pred - w[r]).abs() < 1e-5 * (1.0 + pred.abs()), "body {} rot {}: {} vs {}", b, r, pred, w[r]);
            }
        }
        d.qpos.copy_from_slice(&q0);
    }

    #[test]
    fn quaternions_stay_normalized_and_mjb_round_trips(spec in model(), v in prop::collection::vec(-3.0..3.0f64, 1..8)) {
        let mut owned = compile(&mjcf(&spec, "", 1, ALL));
        let blob = owned.to_mjb(8).unwrap();
        let mut back = OwnedModel::from_mjb(&blob).unwrap();
        prop_assert_eq!(back.to_mjb(8).unwrap(), blob);
        let m = owned.view();
        let mut data = mjrs::simulate::new_data(&m, None).unwrap();
        let mut d = data.view();
        state(&m, &mut d, &[0.3], &v);
        mjrs::stepping::run_control(&m, &mut d, 100).unwrap();
        for j in 0..m.njnt {
            let adr = m.jnt_qposadr[j] as usize;
            let q = match m.jnt_type[j] {
                mjrs_core::types::JNT_FREE => &d.qpos[adr + 3..adr + 7],
                mjrs_core::types::JNT_BALL => &d.qpos[adr..adr + 4],
                _ => continue,
            };
            let norm = q.iter().map(|x| x * x).sum::<f64>().sqrt();
            prop_assert!((norm - 1.0).abs() < 1e-12, "joint {} quaternion norm {}", j, norm);
        }
    }

    #[test]
    fn rk4_keeps_energy_without_damping_and_contacts(spec in tree_model(), v in prop::collection::vec(-1.0..1.0f64, 1..8)) {
        let opts = "integrator=\"RK4\" timestep=\"0.0005\"><flag energy=\"enable\"/></option><option";
        let mut owned = compile(&mjcf(&spec, opts, 0, TREE));
        let m = owned.view();
        let mut data = mjrs::simulate::new_data(&m, None).unwrap();
        let mut d = data.view();
        state(&m, &mut d, &[0.2], &v);
        mjrs_core::forward(&m, &mut d).unwrap();
        let e0 = d.energy[0] + d.energy[1];
        for _ in 0..200 {
            mjrs_core::step(&m, &mut d).unwrap();
        }
        mjrs_core::forward(&m, &mut d).unwrap();
        let e1 = d.energy[0] + d.energy[1];
        // stated bound: 1e-5 of the energy scale over 0.1 s at h = 0.5 ms (see the momentum
        // property for why RK4 is not of fourth order with ball and free joints)
        let scale = 1.0 + e0.abs() + d.energy[1].abs();
        prop_assert!((e1 - e0).abs() < 1e-5 * scale, "energy {} -> {}", e0, e1);
    }

    #[test]
    fn a_free_system_without_gravity_keeps_its_momentum(spec in tree_model(), v in prop::collection::vec(-1.0..1.0f64, 1..8)) {
        let mut spec = spec;
        spec.bodies[0].joint = 3; // a free root, every other body below it
        for b in spec.bodies.iter_mut().skip(1) {
            b.parent = b.parent.max(1);
        }
        let mut owned = compile(&mjcf(&spec, "integrator=\"RK4\" timestep=\"0.001\" gravity=\"0 0 0\"", 0, TREE));
        let m = owned.view();
        let mut data = mjrs::simulate::new_data(&m, None).unwrap();
        let mut d = data.view();
        state(&m, &mut d, &[0.2], &v);
        let momentum = |m: &Model, d: &mut Data| {
            mjrs_core::forward(m, d).unwrap();
            let mut p = [0.0; 3];
            for b in 1..m.nbody {
                let mut jp = vec![0.0; 3 * m.nv];
                support::jac_body_com(m, d, Some(&mut jp), None, b);
                for r in 0..3 {
                    p[r] += m.body_mass[b] * (0..m.nv).map(|k| jp[r * m.nv + k] * d.qvel[k]).sum::<f64>();
                }
            }
            p
        };
        let p0 = momentum(&m, &mut d);
        for _ in 0..100 {
            mjrs_core::step(&m, &mut d).unwrap();
        }
        let p1 = momentum(&m, &mut d);
        // stated bound: RK4 keeps the conjugate momentum of the free root's translation to
        // 1e-6 of its size over 0.1 s at h = 1 ms (exact only in continuous time; MuJoCo's RK4
        // sums tangent velocities of ball and free joints without the Lie-group correction, so
        // on rotations it is of lower order than four). The drift is a vector of any direction,
        // so it is measured against the momentum's length, not component by component (which
        // once held a 4e-6 drift of a momentum of length 30 to 1e-6 of its 2.4 component).
        let norm = |p: [f64; 3]| p.iter().map(|x| x * x).sum::<f64>().sqrt();
        let drift = norm([p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]]);
        prop_assert!(drift < 1e-6 * (1.0 + norm(p0)), "momentum {:?} -> {:?}", p0, p1);
    }

    #[test]
    fn the_f32_build_tracks_the_f64_build_over_short_horizons(spec in model(), v in prop::collection::vec(-1.0..1.0f64, 1..8)) {
        // no contacts (their activation is a threshold that one ulp can flip) and no equality
        // constraints (random ones can be unsatisfiable, e.g. a tendon held longer than it can
        // reach, where the motion turns on rounding at the point the row's Jacobian vanishes);
        // 50 steps of 2 ms
        let parts = Parts { equalities: false, ..ALL };
        let mut owned = compile(&mjcf(&spec, "", 0, parts));
        let m = owned.view();
        let (ours, v0, diverged_f64) = run_f64(&m, &v);
        let (single, diverged_f32) = mjrs::f32::with_f32(&m, None, |m, d, _| {
            d.qvel.iter_mut().zip(&v0).for_each(|(x, &v)| *x = v as f32);
            mjrs::f32::stepping::run_control(m, d, 50)?;
            let state = d.qpos.iter().chain(d.qvel.iter()).map(|&x| f64::from(x)).collect::<Vec<f64>>();
            Ok((state, diverged(|w| d.warning[w].number)))
        }).unwrap();
        // A model that is unstable under its integrator grows until MuJoCo's divergence check
        // (bad qpos, qvel or qacc) resets it; the two builds cross that threshold a step apart
        // and are out of phase from then on, so such runs say nothing about the f32 core.
        prop_assume!(!diverged_f64 && !diverged_f32, "diverged and was reset");
        // Nor do runs that the f64 build itself cannot repeat to the bound: if starting f32's
        // epsilon (1.2e-7) away moves the f64 result by more than 1e-5 (a hundredfold growth,
        // e.g. a light body under a stiff velocity actuator near Euler's stability limit), then
        // 50 steps of f32 rounding, each of that size, may move it past 1e-3 however exact the
        // f32 core is.
        let nudged: Vec<f64> = v.iter().map(|x| x + 1.2e-7).collect();
        let (twin, _, _) = run_f64(&m, &nudged);
        let spread = ours.iter().zip(&twin).map(|(a, b)| (a - b).abs() / (1.0 + a.abs())).fold(0.0, f64::max);
        prop_assume!(spread < 1e-5, "amplifies rounding");
        // stated bound: 1e-3 of the state's size (f32 has 6e-8 relative precision; 50 steps of
        // a chaotic chain grow it by up to four orders). Rounding errors of coupled coordinates
        // mix, so a coordinate that stays at zero in f64 picks up errors of the size of the
        // others (a free body with ball joints at its origin: 6e-13 vs 1.02e-3 in a state of
        // size 1): the scale is the largest coordinate, not each coordinate's own.
        let size = 1.0 + ours.iter().fold(0.0, |s: f64, a| s.max(a.abs()));
        for (a, b) in ours.iter().zip(&single) {
            prop_assert!((a - b).abs() < 1e-3 * size, "f64 {} vs f32 {}", a, b);
        }
    }

    #[test]
    fn compile_write_compile_gives_the_same_model(spec in model()) {
        let xml = mjcf(&spec, "", 1, ALL);
        let mut first = compile(&xml);
        let (spec, _) = mjrs_xml::parse_str(&xml, "random.xml", "", None).unwrap();
        let written = mjrs_xml::writer::write_xml(&spec).unwrap();
        let mut second = compile(&written);
        prop_assert!(first.to_mjb(8).unwrap() == second.to_mjb(8).unwrap(), "models differ after writing:\n{}", written);
    }
}

/// The shape of a large model: `depth` bodies each nested in the previous one, or `width`
/// bodies all children of the world.
#[derive(Clone, Debug)]
enum Shape {
    Deep(usize),
    Wide(usize),
}

/// What one body holds, drawn for a few bodies and repeated along the model: a joint (`joint`
/// 0 none, 1 hinge, 2 slide, 3 ball, 4 free; a deep chain gets none, hinge or slide, so that
/// its dofs stay one per level), a geom of type `geom` (sphere, capsule, box) and size `size`,
/// and a site.
#[derive(Clone, Debug)]
struct Content {
    joint: usize,
    geom: usize,
    size: f64,
    site: bool,
}

/// Large models: chains up to 490 deep (under the XML parser's nesting limit) and up to 3000
/// siblings, with a pattern of contents of up to 16 bodies.
fn large_model() -> impl Strategy<Value = (Shape, Vec<Content>)> {
    let shape = prop_oneof![
        (100..=490usize).prop_map(Shape::Deep),
        (500..=3000usize).prop_map(Shape::Wide),
    ];
    let content = (0..5usize, 0..3usize, 0.01..0.04f64, any::<bool>()).prop_map(
        |(joint, geom, size, site)| Content {
            joint,
            geom,
            size,
            site,
        },
    );
    (shape, prop::collection::vec(content, 1..16))
}

/// The MJCF of a large model: body `b{i}`, its joint `j{i}`, geom `g{i}` and site `s{i}`.
/// Bodies sit 0.1 apart (along z in a chain, x among siblings) and geoms are smaller than half
/// of that, so nothing touches at the start.
fn large_mjcf(shape: &Shape, pattern: &[Content]) -> String {
    let (n, deep) = match *shape {
        Shape::Deep(n) => (n, true),
        Shape::Wide(n) => (n, false),
    };
    let mut xml = String::from("<mujoco><option timestep=\"0.002\"/><worldbody>");
    for i in 0..n {
        let c = &pattern[i % pattern.len()];
        let pos = if deep {
            "0 0 .1".to_string()
        } else {
            format!("{} 0 0", 0.1 * i as f64)
        };
        xml += &format!("<body name=\"b{i}\" pos=\"{pos}\">");
        let joint = if deep { c.joint % 3 } else { c.joint };
        if let Some(t) = ["", "hinge", "slide", "ball", "free"]
            .get(joint)
            .filter(|t| !t.is_empty())
        {
            xml += &format!("<joint name=\"j{i}\" type=\"{t}\" axis=\"0 1 0\"/>");
        }
        let (ty, size) = match c.geom {
            0 => ("sphere", format!("{}", c.size)),
            1 => ("capsule", format!("{} {}", c.size / 2.0, c.size / 2.0)),
            _ => (
                "box",
                format!("{} {} {}", c.size / 2.0, c.size / 2.0, c.size / 2.0),
            ),
        };
        xml += &format!("<geom name=\"g{i}\" type=\"{ty}\" size=\"{size}\"/>");
        if c.site {
            xml += &format!("<site name=\"s{i}\"/>");
        }
        if !deep {
            xml += "</body>";
        }
    }
    if deep {
        xml += &"</body>".repeat(n);
    }
    xml + "</worldbody></mujoco>"
}

const LARGE_CASES: u32 = 16;

/// [`config`] with `LARGE_CASES` cases (each compiles hundreds to thousands of bodies), unless
/// `PROPTEST_CASES` is set.
fn large_config() -> ProptestConfig {
    let mut config = config();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = LARGE_CASES;
    }
    config
}

proptest! {
    #![proptest_config(large_config())]

    /// Deep and wide models compile, have the tree they were written with (body count, parents,
    /// every body, joint, geom and site found again by its name), and step with a finite state.
    #[test]
    fn deep_and_wide_models_compile_with_their_tree_and_names((shape, pattern) in large_model()) {
        use mjrs_core::name::name2id;
        use mjrs_core::types::{OBJ_BODY, OBJ_GEOM, OBJ_JOINT, OBJ_SITE};
        let mut owned = compile(&large_mjcf(&shape, &pattern));
        let m = owned.view();
        let (n, deep) = match shape {
            Shape::Deep(n) => (n, true),
            Shape::Wide(n) => (n, false),
        };
        prop_assert_eq!(m.nbody, n + 1);
        let (mut njnt, mut nsite) = (0, 0);
        for i in 0..n {
            let id = i + 1;
            prop_assert_eq!(m.body_parentid[id] as usize, if deep { i } else { 0 });
            prop_assert_eq!(name2id(&m, OBJ_BODY, &format!("b{i}")), Some(id));
            prop_assert_eq!(name2id(&m, OBJ_GEOM, &format!("g{i}")), Some(i));
            prop_assert_eq!(m.geom_bodyid[i] as usize, id);
            if let Some(j) = name2id(&m, OBJ_JOINT, &format!("j{i}")) {
                prop_assert_eq!((j, m.jnt_bodyid[j] as usize), (njnt, id));
                njnt += 1;
            }
            if let Some(s) = name2id(&m, OBJ_SITE, &format!("s{i}")) {
                prop_assert_eq!((s, m.site_bodyid[s] as usize), (nsite, id));
                nsite += 1;
            }
        }
        prop_assert_eq!((m.njnt, m.nsite), (njnt, nsite));
        let mut data = mjrs::simulate::new_data(&m, None).unwrap();
        let mut d = data.view();
        for _ in 0..3 {
            mjrs_core::step(&m, &mut d).unwrap();
        }
        prop_assert!(d.qpos.iter().chain(d.qvel.iter()).all(|x| x.is_finite()));
    }
}
