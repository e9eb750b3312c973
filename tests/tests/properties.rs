//! Properties of the pipeline on random models (a generator of valid MJCF: trees of bodies
//! with hinge, slide, ball and free joints, geoms of every primitive type, motors) and random
//! states, with proptest: the mass matrix is symmetric positive definite and `mul_m` agrees
//! with the dense matrix; body Jacobians agree with finite differences of positions;
//! quaternions stay normalized; without damping and contacts, RK4 keeps the energy and a free
//! system without gravity its momentum; MJB save-load-save is byte-identical; compiling,
//! writing MJCF and compiling again gives the same model; the f32 build stays close to the
//! f64 build over short horizons.

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

/// The MJCF of a tree: free joints only directly under the world; `options` goes in
/// `<option>`, `contype` on every geom.
fn mjcf(bodies: &[BodySpec], options: &str, contype: u8, motors: bool) -> String {
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
            "<body name=\"b{i}\" pos=\"{}\">{joint}<geom {geom} pos=\"0.05 0 0\" contype=\"{contype}\" conaffinity=\"{contype}\"/>",
            f(&b.pos)
        ));
        for &c in &children[i] {
            body(c, bodies, children, f, contype, out);
        }
        out.push_str("</body>");
    }
    let mut world = String::new();
    for &c in &children[0] {
        body(c, bodies, &children, &f, contype, &mut world);
    }
    let mut actuators = String::new();
    if motors {
        for (i, b) in bodies.iter().enumerate() {
            if b.joint < 2 {
                actuators.push_str(&format!("<motor joint=\"j{}\" gear=\"1\"/>", i + 1));
            }
        }
    }
    format!("<mujoco><option {options}/><worldbody>{world}</worldbody><actuator>{actuators}</actuator></mujoco>")
}

fn compile(xml: &str) -> OwnedModel {
    mjrs_xml::compile_str(xml, "random.xml", "", None)
        .unwrap_or_else(|e| panic!("{e}\n{xml}"))
        .model
}

/// A data at a random configuration: qpos0 moved along `dq` (scaled), velocities `v`.
fn state(m: &Model, d: &mut Data, dq: &[f64], v: &[f64]) {
    d.qpos.copy_from_slice(m.qpos0);
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

const CASES: u32 = 256;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    #[test]
    fn mass_matrix_is_spd_and_mul_m_agrees(bodies in tree(), dq in prop::collection::vec(-1.0..1.0f64, 1..8),
                                          x in prop::collection::vec(-2.0..2.0f64, 1..8)) {
        let (mut owned, mut data) = at_state(&mjcf(&bodies, "", 1, false), &dq, &[0.0]);
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
    fn body_jacobians_match_finite_differences(bodies in tree(), dq in prop::collection::vec(-1.0..1.0f64, 1..8),
                                               dir in prop::collection::vec(-1.0..1.0f64, 1..8)) {
        let (mut owned, mut data) = at_state(&mjcf(&bodies, "", 1, false), &dq, &[0.0]);
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
        support::integrate_pos(&m, d.qpos, &v, eps);
        mjrs_core::forward(&m, &mut d).unwrap();
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
    fn quaternions_stay_normalized_and_mjb_round_trips(bodies in tree(), v in prop::collection::vec(-3.0..3.0f64, 1..8)) {
        let mut owned = compile(&mjcf(&bodies, "", 1, true));
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
    fn rk4_keeps_energy_without_damping_and_contacts(bodies in tree(), v in prop::collection::vec(-1.0..1.0f64, 1..8)) {
        let opts = "integrator=\"RK4\" timestep=\"0.0005\"><flag energy=\"enable\"/></option><option";
        let mut owned = compile(&mjcf(&bodies, opts, 0, false));
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
    fn a_free_system_without_gravity_keeps_its_momentum(bodies in tree(), v in prop::collection::vec(-1.0..1.0f64, 1..8)) {
        let mut bodies = bodies;
        bodies[0].joint = 3; // a free root, every other body below it
        for b in bodies.iter_mut().skip(1) {
            b.parent = b.parent.max(1);
        }
        let mut owned = compile(&mjcf(&bodies, "integrator=\"RK4\" timestep=\"0.001\" gravity=\"0 0 0\"", 0, false));
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
        for r in 0..3 {
            // stated bound: RK4 keeps the conjugate momentum of the free root's translation to
            // 1e-6 of its scale over 0.1 s at h = 1 ms (exact only in continuous time; MuJoCo's
            // RK4 sums tangent velocities of ball and free joints without the Lie-group
            // correction, so on rotations it is of lower order than four)
            prop_assert!((p1[r] - p0[r]).abs() < 1e-6 * (1.0 + p0[r].abs()), "momentum {:?} -> {:?}", p0, p1);
        }
    }

    #[test]
    fn the_f32_build_tracks_the_f64_build_over_short_horizons(bodies in tree(), v in prop::collection::vec(-1.0..1.0f64, 1..8)) {
        // no contacts (their activation is a threshold that one ulp can flip); 50 steps of 2 ms
        let mut owned = compile(&mjcf(&bodies, "", 0, true));
        let m = owned.view();
        let mut data = mjrs::simulate::new_data(&m, None).unwrap();
        let mut d = data.view();
        state(&m, &mut d, &[0.0], &v);
        let v0 = d.qvel.to_vec();
        mjrs::stepping::run_control(&m, &mut d, 50).unwrap();
        let ours: Vec<f64> = d.qpos.iter().chain(d.qvel.iter()).copied().collect();
        let single = mjrs::f32::with_f32(&m, None, |m, d, _| {
            d.qvel.iter_mut().zip(&v0).for_each(|(x, &v)| *x = v as f32);
            mjrs::f32::stepping::run_control(m, d, 50)?;
            Ok(d.qpos.iter().chain(d.qvel.iter()).map(|&x| f64::from(x)).collect::<Vec<f64>>())
        }).unwrap();
        // stated bound: 1e-3 absolute (f32 has 6e-8 relative precision; 50 steps of a chaotic
        // chain grow it by up to four orders)
        for (a, b) in ours.iter().zip(&single) {
            prop_assert!((a - b).abs() < 1e-3 * (1.0 + a.abs()), "f64 {} vs f32 {}", a, b);
        }
    }

    #[test]
    fn compile_write_compile_gives_the_same_model(bodies in tree()) {
        let xml = mjcf(&bodies, "", 1, true);
        let mut first = compile(&xml);
        let (spec, _) = mjrs_xml::parse_str(&xml, "random.xml", "", None).unwrap();
        let written = mjrs_xml::writer::write_xml(&spec).unwrap();
        let mut second = compile(&written);
        prop_assert!(first.to_mjb(8).unwrap() == second.to_mjb(8).unwrap(), "models differ after writing:\n{}", written);
    }
}
