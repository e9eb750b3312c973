//! Consistency of the mass-matrix and Jacobian support functions on a real model: `solve_m`
//! inverts `mul_m`, `solve_m2` and `mul_m2` are the two halves, `full_m` agrees with `mul_m`,
//! `add_m` adds what `full_m` expands, Jacobians map `qvel` to the velocities
//! `object_velocity` reports; `angmom_mat` is MuJoCo's (`generate-angmom.py`).

use mjrs_core::smooth::{solve_m, solve_m2};
use mjrs_core::support::{
    add_m, angmom_mat, full_m, jac_body, jac_site, mul_m, mul_m2, object_velocity, SparseRows,
};
use mjrs_core::types::{OBJ_SITE, OBJ_XBODY};
use mjrs_core::{mjb, Data, Model};
use mjrs_tests::fixtures;

fn with_model(name: &str, f: impl FnOnce(&Model, &mut Data)) {
    let blob = std::fs::read(fixtures().join("smooth").join(format!("{name}.mjb"))).unwrap();
    let mut mbuf = vec![0u8; mjb::read_header(&blob).unwrap().model_bytes().unwrap()];
    let m = mjb::load(&blob, &mut mbuf).unwrap();
    let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = Data::new(&m, &mut dbuf).unwrap();
    for _ in 0..30 {
        mjrs::control::sine(&m, &mut d);
        mjrs_core::step(&m, &mut d).unwrap();
    }
    mjrs_core::forward(&m, &mut d).unwrap();
    f(&m, &mut d);
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

#[test]
fn mass_matrix_products_and_solves_agree() {
    for name in ["humanoid", "chain_joints", "tendon_long"] {
        with_model(name, |m, d| {
            let nv = m.nv;
            let y: Vec<f64> = (0..nv).map(|i| ((i * 7 + 3) % 11) as f64 - 5.0).collect();
            let (mut x, mut back) = (vec![0.0; nv], vec![0.0; nv]);
            solve_m(m, d, &mut x, &y, 1);
            mul_m(m, d, &mut back, &x);
            assert!(
                back.iter().zip(&y).all(|(a, b)| close(*a, *b)),
                "{name}: M (M\\y) != y"
            );

            // solve_m2 is half of the solve: |solve_m2(y)|^2 = y' M^-1 y
            let mut half = vec![0.0; nv];
            solve_m2(m, d, &mut half, &y, 1);
            assert!(close(dot(&half, &half), dot(&y, &x)), "{name}: solve_m2");

            // the dense matrix times y is the sparse product
            mul_m(m, d, &mut back, &y);
            let mut dense = vec![0.0; nv * nv];
            full_m(m, &mut dense, d.qM);
            for i in 0..nv {
                assert!(
                    close(dot(&dense[i * nv..(i + 1) * nv], &y), back[i]),
                    "{name}: full_m row {i}"
                );
            }
        });
    }
}

/// `mj_mulM2` of MuJoCo 3.1.6 on the humanoid at `qpos0`, for `y_i = (7i + 3) mod 11 - 5`
/// (from its Python bindings). MuJoCo's function scales only the diagonal term by `sqrt(D)`, so
/// the result is not a square root of `M` in the `L'DL` sense; mjrs reproduces it as it is.
const MUJOCO_MULM2: [f64; 23] = [
    -7.407872333250387,
    19.898766358276188,
    6.230835497967452,
    5.9983323452998025,
    3.304098052188758,
    -6.815797128432513,
    -4.221643964780143,
    17.06949369777236,
    9.556221623560717,
    -5.171490828550933,
    -1.5452658260033103,
    21.296835739450454,
    -23.334154090958997,
    -0.5606238466771122,
    2.4440766043620163,
    22.58039871983538,
    -36.975206551011695,
    9.796063102287754,
    5.992544279026971,
    15.855021328236614,
    10.284912839190131,
    16.454637461130798,
    -5.006495491584353,
];

#[test]
fn mul_m2_is_mujocos() {
    let blob = std::fs::read(fixtures().join("smooth/humanoid.mjb")).unwrap();
    let mut mbuf = vec![0u8; mjb::read_header(&blob).unwrap().model_bytes().unwrap()];
    let m = mjb::load(&blob, &mut mbuf).unwrap();
    let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = Data::new(&m, &mut dbuf).unwrap();
    mjrs_core::forward(&m, &mut d).unwrap();
    let y: Vec<f64> = (0..m.nv).map(|i| ((i * 7 + 3) % 11) as f64 - 5.0).collect();
    let mut r = vec![0.0; m.nv];
    mul_m2(&m, &d, &mut r, &y);
    assert_eq!(r, MUJOCO_MULM2);
}

#[test]
fn jacobians_map_qvel_to_object_velocities() {
    with_model("humanoid", |m, d| {
        let nv = m.nv;
        let (mut jacp, mut jacr) = (vec![0.0; 3 * nv], vec![0.0; 3 * nv]);
        for body in 1..m.nbody {
            jac_body(m, d, Some(&mut jacp), Some(&mut jacr), body);
            let vel = object_velocity(m, d, OBJ_XBODY, body, false).unwrap();
            for k in 0..3 {
                let ang = dot(&jacr[k * nv..(k + 1) * nv], d.qvel);
                let lin = dot(&jacp[k * nv..(k + 1) * nv], d.qvel);
                assert!(
                    close(ang, vel[k]) && close(lin, vel[3 + k]),
                    "body {body} axis {k}"
                );
            }
        }
    });
    with_model("sensor_frames", |m, d| {
        let nv = m.nv;
        let mut jacp = vec![0.0; 3 * nv];
        for site in 0..m.nsite {
            jac_site(m, d, Some(&mut jacp), None, site);
            let vel = object_velocity(m, d, OBJ_SITE, site, false).unwrap();
            for k in 0..3 {
                assert!(
                    close(dot(&jacp[k * nv..(k + 1) * nv], d.qvel), vel[3 + k]),
                    "site {site}"
                );
            }
        }
    });
}

#[test]
fn angmom_mat_is_mujocos() {
    let reference = mjrs_tests::read_json(&fixtures().join("misc/angmom.json"));
    let blob = std::fs::read(fixtures().join(reference["model"].as_str().unwrap())).unwrap();
    let mut mbuf = vec![0u8; mjb::read_header(&blob).unwrap().model_bytes().unwrap()];
    let m = mjb::load(&blob, &mut mbuf).unwrap();
    let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = Data::new(&m, &mut dbuf).unwrap();
    for _ in 0..reference["steps"].as_u64().unwrap() {
        mjrs_core::step(&m, &mut d).unwrap();
    }
    mjrs_core::forward(&m, &mut d).unwrap();
    let reals = |v: &serde_json::Value| -> Vec<f64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    };
    assert_eq!(d.qvel.to_vec(), reals(&reference["qvel"]));
    let bodies = reference["bodies"].as_array().unwrap();
    for (b, expected) in bodies.iter().zip(reference["mat"].as_array().unwrap()) {
        let mut mat = vec![f64::NAN; 3 * m.nv];
        angmom_mat(&m, &mut d, &mut mat, b.as_u64().unwrap() as usize).unwrap();
        assert_eq!(mat, reals(expected), "body {b}");
    }
    // the subtree's angular momentum about its center of mass, as subtree_angmom has it
    let mut mat = vec![0.0; 3 * m.nv];
    angmom_mat(&m, &mut d, &mut mat, 1).unwrap();
    mjrs_core::smooth::subtree_vel(&m, &mut d).unwrap();
    for k in 0..3 {
        let l = dot(&mat[k * m.nv..(k + 1) * m.nv], d.qvel);
        assert!(
            close(l, d.subtree_angmom[3 + k]),
            "{l} vs {}",
            d.subtree_angmom[3 + k]
        );
    }
}

#[test]
fn add_m_adds_the_mass_matrix_dense_and_sparse() {
    with_model("humanoid", |m, d| {
        let nv = m.nv;
        // dense: identity + M
        let mut dense = vec![0.0; nv * nv];
        for i in 0..nv {
            dense[i * nv + i] = 1.0;
        }
        add_m(m, d, &mut dense, None).unwrap();
        let mut full = vec![0.0; nv * nv];
        full_m(m, &mut full, d.qM);
        for i in 0..nv {
            full[i * nv + i] += 1.0;
        }
        assert_eq!(dense, full);
        // sparse: the identity in MuJoCo's row format, room for nv entries per row
        let mut values = vec![0.0; nv * nv];
        let mut rownnz = vec![1; nv];
        let rowadr: Vec<i32> = (0..nv).map(|i| (i * nv) as i32).collect();
        let mut colind = vec![0; nv * nv];
        for i in 0..nv {
            values[i * nv] = 1.0;
            colind[i * nv] = i as i32;
        }
        let rows = SparseRows {
            rownnz: &mut rownnz,
            rowadr: &rowadr,
            colind: &mut colind,
        };
        add_m(m, d, &mut values, Some(rows)).unwrap();
        let mut expanded = vec![0.0; nv * nv];
        for i in 0..nv {
            for k in 0..rownnz[i] as usize {
                let a = rowadr[i] as usize + k;
                expanded[i * nv + colind[a] as usize] = values[a];
            }
        }
        assert_eq!(expanded, full);
        assert!(rownnz.iter().any(|&n| n > 1));
    });
}

/// `misc/support_misc.json` (`generate-support-misc.py`).
fn support_misc() -> serde_json::Value {
    mjrs_tests::read_json(&fixtures().join("misc").join("support_misc.json"))
}

#[test]
fn object_type_names_are_mujocos() {
    let fx = support_misc();
    for (ty, name) in fx["type2str"].as_object().unwrap() {
        let ty: i32 = ty.parse().unwrap();
        assert_eq!(mjrs_core::name::type2str(ty), name.as_str(), "type {ty}");
    }
    for (name, ty) in fx["str2type"].as_object().unwrap() {
        let expected = ty.as_i64().unwrap() as i32;
        assert_eq!(mjrs_core::name::str2type(name), expected, "{name:?}");
    }
}

#[test]
fn byte_counts_are_written_as_mujoco_writes_them() {
    for (n, text) in support_misc()["num_bytes"].as_object().unwrap() {
        let n: u64 = n.parse().unwrap();
        assert_eq!(mjrs_std::write_num_bytes(n), text.as_str().unwrap(), "{n}");
    }
}

/// `ray_skin` on 812 rays against a 128-triangle soup (211 hits): MuJoCo's distances bit for
/// bit and its nearest vertices.
#[test]
fn ray_skin_is_mujocos() {
    let fx = support_misc();
    let skin = &fx["skin"];
    let face: Vec<i32> = skin["face"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap() as i32)
        .collect();
    let vert: Vec<f32> = skin["vert"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap() as f32)
        .collect();
    let three =
        |v: &serde_json::Value| -> [f64; 3] { core::array::from_fn(|k| v[k].as_f64().unwrap()) };
    let rays = skin["rays"].as_array().unwrap();
    let mut hits = 0;
    for (i, ray) in rays.iter().enumerate() {
        let (pnt, vec) = (three(&ray["pnt"]), three(&ray["vec"]));
        let (dist, vertid) = mjrs_core::ray::ray_skin(&face, &vert, &pnt, &vec).unwrap();
        let expected = ray["dist"].as_f64().unwrap();
        assert_eq!(
            dist.to_bits(),
            expected.to_bits(),
            "ray {i}: {dist} vs {expected}"
        );
        let expected_vert = ray["vertid"].as_u64().map(|v| v as usize);
        assert_eq!(vertid, expected_vert, "ray {i}");
        hits += usize::from(vertid.is_some());
    }
    assert!(
        rays.len() > 800 && hits > 200,
        "{} rays, {hits} hits",
        rays.len()
    );
}

#[test]
fn ray_skin_rejects_faces_outside_the_vertices() {
    let vert = [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
    let ray =
        |face: &[i32]| mjrs_core::ray::ray_skin(face, &vert, &[0.2, 0.2, 1.0], &[0.0, 0.0, -1.0]);
    let (dist, vertid) = ray(&[0, 1, 2]).unwrap();
    assert_eq!((dist, vertid), (1.0, Some(0)));
    for (bad, vertex) in [([0, 1, 3], 3), ([-1, 1, 2], -1)] {
        let expected = mjrs_core::ray::RayError::FaceOutOfRange {
            face: 0,
            vertex,
            nvert: 3,
        };
        assert_eq!(ray(&bad), Err(expected));
    }
    // no vertices: nothing to hit
    assert_eq!(
        mjrs_core::ray::ray_skin(&[], &[], &[0.0; 3], &[1.0, 0.0, 0.0]),
        Ok((-1.0, None))
    );
}

/// `apply_torque` (a torque alone, no scratch) is `apply_ft` with no force, bit for bit, on a
/// dense model for every body; on a sparse one (`jacobian="sparse"`) it leaves the dofs off the
/// body's chain alone (a -0 stays -0, where the dense sum makes it +0), as MuJoCo's sparse
/// `mj_applyFT` does, and adds the same on the chain.
#[test]
fn apply_torque_is_apply_ft_without_a_force() {
    use mjrs_core::support::{apply_ft, apply_torque, jac_body};
    use mjrs_core::types::JAC_SPARSE;
    let blob = std::fs::read(fixtures().join("smooth").join("humanoid.mjb")).unwrap();
    for sparse in [false, true] {
        let mut mbuf = vec![0u8; mjb::read_header(&blob).unwrap().model_bytes().unwrap()];
        let mut m = mjb::load(&blob, &mut mbuf).unwrap();
        let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
        let mut d = Data::new(&m, &mut dbuf).unwrap();
        for _ in 0..30 {
            mjrs::control::sine(&m, &mut d);
            mjrs_core::step(&m, &mut d).unwrap();
        }
        mjrs_core::forward(&m, &mut d).unwrap();
        if sparse {
            m.opt.jacobian = JAC_SPARSE;
        }
        let (m, nv) = (&m, m.nv);
        let torque = [0.3, -1.25, 0.0];
        for body in 0..m.nbody {
            let start = vec![-0.0; nv];
            let mut ours = start.clone();
            apply_torque(m, &d, &torque, body, &mut ours);
            let mut dense = start.clone();
            d.with_stack(|d, stack| {
                let point = [0.1, 0.2, 0.3];
                apply_ft(m, d, None, Some(&torque), &point, body, &mut dense, stack)
            })
            .unwrap();
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            if !sparse {
                assert_eq!(bits(&ours), bits(&dense), "body {body}");
                continue;
            }
            let (mut jacp, mut jacr) = (vec![0.0; 3 * nv], vec![0.0; 3 * nv]);
            jac_body(m, &d, Some(&mut jacp), Some(&mut jacr), body);
            for i in 0..nv {
                let on_chain = (0..3).any(|r| jacp[r * nv + i] != 0.0 || jacr[r * nv + i] != 0.0);
                let expected = if on_chain { dense[i] } else { -0.0 };
                assert_eq!(ours[i].to_bits(), expected.to_bits(), "body {body} dof {i}");
            }
        }
    }
}
