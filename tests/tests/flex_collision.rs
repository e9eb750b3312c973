//! Flex collisions (`core/src/collision/flex.rs`, the flex parts of the broad phase, midphase
//! and driver) and contact rows on flexes (`core/src/constraint/contact.rs`) against MuJoCo
//! 3.1.6, for the cases of `fixtures/generate-flex-collision.py`: a 2D cloth (triangles) over a
//! sphere, a free box and a plane, a 3D soft box (tetrahedra) on a tilted plane and a capsule,
//! and a 1D rope (capsules) over a sphere, capsule, box and ellipsoid; with self-collision by
//! each mode (narrow, bvh, sap), internal collisions on and off, active layers, condim 1, 4 and
//! 6, priority and solmix mixing, margin and gap, contype/conaffinity, dense and sparse
//! Jacobians, elliptic cones and the midphase disabled. The `hfield_*` cases drop a cloth, a
//! soft box and a rope on height fields (`mjc_HFieldElem`: tilted, rough, flat, with cells
//! smaller than the rope's segments, 1x1), with margins, condim 1, 3 and 6, self-collision and
//! the midphase disabled, and with a vertex at NaN, infinity or far outside the grid.
//! * After a number of steps and a forward pass, every member of every contact (geom, flex,
//!   elem, vert ids, distance, frame, mixed parameters...) and the rows (type, id, pos, margin,
//!   diagApprox, force, the Jacobian by hash) and qacc are bit for bit MuJoCo's (where MuJoCo
//!   stops with `mju_error`, mjrs returns the same error);
//! * 300 to 900 steps give MuJoCo's qpos and qvel bit for bit;
//! * the height field models compiled from XML by mjrs do the same.

use mjrs_core::{mjb, Data, Model};
use mjrs_tests::{fixtures, read_json, sha256::sha256_hex};
use serde_json::Value;
use std::path::PathBuf;

/// The fixtures: every `flex_collision/*.json`, by name.
fn cases() -> Vec<(String, Value)> {
    let dir = fixtures().join("flex_collision");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    let cases: Vec<_> = paths
        .iter()
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, read_json(p))
        })
        .collect();
    assert!(
        cases.len() >= 40,
        "only {} flex collision fixtures",
        cases.len()
    );
    cases
}

/// A number of the generator: a JSON number, or "nan", "inf", "-inf".
fn num(v: &Value) -> f64 {
    match v.as_str() {
        Some("nan") => f64::NAN,
        Some("inf") => f64::INFINITY,
        Some("-inf") => f64::NEG_INFINITY,
        _ => v.as_f64().unwrap_or_else(|| panic!("not a number: {v}")),
    }
}

/// Sets `field[i]` from `v` (a number for every element, a list, or `{index: value}`).
fn set<T: Copy>(field: &mut [T], v: &Value, conv: impl Fn(f64) -> T) {
    match v {
        Value::Array(a) => {
            assert_eq!(a.len() % field.len().max(1), 0);
            let n = a.len();
            for (i, f) in field.iter_mut().enumerate() {
                *f = conv(num(&a[i % n]));
            }
        }
        Value::Object(o) => {
            for (k, x) in o {
                field[k.parse::<usize>().unwrap()] = conv(num(x));
            }
        }
        _ => field.fill(conv(num(v))),
    }
}

/// Makes the fixture's changes to the model, as the generator made them to MuJoCo's.
fn apply(m: &mut Model, changes: &Value) {
    let int = |x: f64| x as i32;
    let byte = |x: f64| x as u8;
    let num = |x: f64| x;
    for (name, v) in changes.as_object().unwrap() {
        match name.as_str() {
            "opt_jacobian" => m.opt.jacobian = v.as_i64().unwrap() as i32,
            "opt_cone" => m.opt.cone = v.as_i64().unwrap() as i32,
            "opt_disableflags" => m.opt.disableflags = v.as_i64().unwrap() as i32,
            "flex_selfcollide" => set(&mut m.flex_selfcollide, v, int),
            "flex_condim" => set(&mut m.flex_condim, v, int),
            "flex_priority" => set(&mut m.flex_priority, v, int),
            "flex_contype" => set(&mut m.flex_contype, v, int),
            "flex_conaffinity" => set(&mut m.flex_conaffinity, v, int),
            "flex_activelayers" => set(&mut m.flex_activelayers, v, int),
            "flex_internal" => set(&mut m.flex_internal, v, byte),
            "geom_conaffinity" => set(&mut m.geom_conaffinity, v, int),
            "body_conaffinity" => set(&mut m.body_conaffinity, v, int),
            "flex_friction" => set(&mut m.flex_friction, v, num),
            "flex_solref" => set(&mut m.flex_solref, v, num),
            "flex_solimp" => set(&mut m.flex_solimp, v, num),
            "flex_solmix" => set(&mut m.flex_solmix, v, num),
            "flex_margin" => set(&mut m.flex_margin, v, num),
            "flex_gap" => set(&mut m.flex_gap, v, num),
            "geom_margin" => set(&mut m.geom_margin, v, num),
            "flex_radius" => set(&mut m.flex_radius, v, num),
            // made to the state after the steps
            "data_qpos" => {}
            other => panic!("change of {other} not known to the test"),
        }
    }
}

/// Where a case's model comes from.
#[derive(Clone, Copy, PartialEq)]
enum Source {
    /// As the fixture says: MuJoCo's MJB, or mjrs's compilation of the XML for models named
    /// `M.xml@xml`.
    Fixture,
    /// mjrs's compilation of `tests/models/flex_collision/M.xml`.
    Xml,
}

/// Runs `f` on the fixture's model with its changes and fresh data.
fn with_case(case: &Value, source: Source, f: impl FnOnce(&Model, &mut Data)) {
    let name = case["model"].as_str().unwrap();
    let (xml, from_xml) = match name.strip_suffix("@xml") {
        Some(xml) => (xml.to_string(), true),
        None => (name.replace(".mjb", ".xml"), source == Source::Xml),
    };
    if from_xml {
        let path = fixtures().join("../models/flex_collision").join(xml);
        let mut model = mjrs_xml::load_xml(&path, None).unwrap().model;
        let mut m = model.view();
        apply(&mut m, &case["changes"]);
        let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
        let mut d = Data::new(&m, &mut dbuf).unwrap();
        f(&m, &mut d);
        return;
    }
    let blob = std::fs::read(fixtures().join("flex_collision").join(name)).unwrap();
    let header = mjb::read_header(&blob).unwrap();
    let mut mbuf = vec![0u8; header.model_bytes().unwrap()];
    let mut m = mjb::load(&blob, &mut mbuf).unwrap();
    apply(&mut m, &case["changes"]);
    let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = Data::new(&m, &mut dbuf).unwrap();
    f(&m, &mut d);
}

fn nums(v: &Value) -> Vec<f64> {
    v.as_array().unwrap().iter().map(num).collect()
}

/// The differences between mjrs's numbers and the reference's, as text (empty: equal bits, or
/// both NaN: the generator writes every NaN as "nan").
fn differ(what: &str, ours: &[f64], reference: &Value) -> Vec<String> {
    let theirs = nums(reference);
    if ours.len() != theirs.len() {
        return vec![format!(
            "{what}: {} values, MuJoCo {}",
            ours.len(),
            theirs.len()
        )];
    }
    let bad: Vec<usize> = (0..ours.len())
        .filter(|&i| {
            ours[i].to_bits() != theirs[i].to_bits() && !(ours[i].is_nan() && theirs[i].is_nan())
        })
        .collect();
    match bad.first() {
        None => vec![],
        Some(&i) => vec![format!(
            "{what}: {} of {} differ, first [{i}] {} vs MuJoCo {}",
            bad.len(),
            ours.len(),
            ours[i],
            theirs[i]
        )],
    }
}

/// The contacts' members as the generator writes them, one flat list per member.
fn contact_lists(d: &Data) -> Vec<(&'static str, Vec<f64>)> {
    let arrays = d.arena.arrays();
    let con = &arrays.contact[..d.ncon];
    let ints = |f: fn(&mjrs_core::records::Contact) -> Vec<i32>| -> Vec<f64> {
        con.iter().flat_map(f).map(f64::from).collect()
    };
    let reals = |f: fn(&mjrs_core::records::Contact) -> Vec<f64>| -> Vec<f64> {
        con.iter().flat_map(f).collect()
    };
    vec![
        ("dist", reals(|c| vec![c.dist])),
        ("pos", reals(|c| c.pos.to_vec())),
        ("frame", reals(|c| c.frame.to_vec())),
        ("includemargin", reals(|c| vec![c.includemargin])),
        ("friction", reals(|c| c.friction.to_vec())),
        ("solref", reals(|c| c.solref.to_vec())),
        ("solreffriction", reals(|c| c.solreffriction.to_vec())),
        ("solimp", reals(|c| c.solimp.to_vec())),
        ("mu", reals(|c| vec![c.mu])),
        ("dim", ints(|c| vec![c.dim])),
        ("geom", ints(|c| c.geom.to_vec())),
        ("flex", ints(|c| c.flex.to_vec())),
        ("elem", ints(|c| c.elem.to_vec())),
        ("vert", ints(|c| c.vert.to_vec())),
        ("exclude", ints(|c| vec![c.exclude])),
        ("efc_address", ints(|c| vec![c.efc_address])),
    ]
}

/// The rows as the generator writes them, and the hash of the dense Jacobian with its
/// number of non-zeros.
fn efc_lists(m: &Model, d: &Data) -> (Vec<(&'static str, Vec<f64>)>, String, usize) {
    let a = d.arena.arrays();
    let n = d.nefc;
    let ints = |s: &[i32]| s[..n].iter().map(|&x| f64::from(x)).collect::<Vec<_>>();
    let lists = vec![
        ("type", ints(a.efc_type)),
        ("id", ints(a.efc_id)),
        ("pos", a.efc_pos[..n].to_vec()),
        ("margin", a.efc_margin[..n].to_vec()),
        ("diagApprox", a.efc_diagApprox[..n].to_vec()),
        ("force", a.efc_force[..n].to_vec()),
    ];
    let nv = m.nv;
    let mut dense = vec![0.0f64; n * nv];
    if mjrs_core::support::is_sparse(m) {
        for r in 0..n {
            let adr = a.efc_J_rowadr[r] as usize;
            for k in 0..a.efc_J_rownnz[r] as usize {
                dense[r * nv + a.efc_J_colind[adr + k] as usize] = a.efc_J[adr + k];
            }
        }
    } else {
        dense.copy_from_slice(&a.efc_J[..n * nv]);
    }
    let nnz = dense.iter().filter(|&&x| x != 0.0).count();
    let bytes: Vec<u8> = dense.iter().flat_map(|x| x.to_le_bytes()).collect();
    (lists, sha256_hex(&bytes), nnz)
}

/// Differences of the contacts, rows and qacc after the fixture's steps (and its changes to
/// `qpos`) and a forward pass.
fn data_differences(name: &str, case: &Value, source: Source) -> Vec<String> {
    let mut out = Vec::new();
    with_case(case, source, |m, d| {
        for i in 0..case["steps"].as_u64().unwrap() {
            mjrs_core::step(m, d).unwrap_or_else(|e| panic!("{name} step {i}: {e}"));
        }
        if let Some(qpos) = case["changes"].get("data_qpos") {
            set(d.qpos, qpos, |x| x);
        }
        let result = mjrs_core::forward(m, d);
        // MuJoCo stopped with mju_error: the same error, as an error
        if let Some(error) = case.get("error") {
            match result {
                Err(e) if e.to_string().contains(error.as_str().unwrap()) => {}
                other => out.push(format!("{other:?} where MuJoCo fails with {error}")),
            }
            return;
        }
        result.unwrap();
        if d.ncon as u64 != case["ncon"].as_u64().unwrap() {
            out.push(format!("ncon {} vs MuJoCo {}", d.ncon, case["ncon"]));
        }
        for (k, ours) in contact_lists(d) {
            out.extend(differ(&format!("contact.{k}"), &ours, &case["contact"][k]));
        }
        let (rows, hash, nnz) = efc_lists(m, d);
        for (k, ours) in rows {
            out.extend(differ(&format!("efc_{k}"), &ours, &case["efc"][k]));
        }
        if nnz as u64 != case["efc"]["J_nnz"].as_u64().unwrap() {
            out.push(format!(
                "efc_J: {nnz} non-zeros vs MuJoCo {}",
                case["efc"]["J_nnz"]
            ));
        } else if hash != case["efc"]["J_sha256"].as_str().unwrap() {
            out.push("efc_J: values differ".into());
        }
        out.extend(differ("qacc", d.qacc, &case["qacc"]));
    });
    out.into_iter().map(|e| format!("{name}: {e}")).collect()
}

#[test]
fn contacts_and_rows_are_bit_for_bit() {
    let mut failures = Vec::new();
    let (mut flex_contacts, mut hfield_contacts) = (0, 0);
    for (name, case) in cases() {
        failures.extend(data_differences(&name, &case, Source::Fixture));
        if case.get("error").is_some() {
            continue;
        }
        let flex = nums(&case["contact"]["flex"]);
        flex_contacts += flex.chunks(2).filter(|f| f[1] >= 0.0).count();
        // every geom of the hfield_* models is a height field
        let geom = nums(&case["contact"]["geom"]);
        if name.starts_with("hfield_") {
            hfield_contacts += geom.chunks(2).filter(|g| g[0] >= 0.0).count();
        }
    }
    println!("{flex_contacts} contacts on flexes compared, {hfield_contacts} with height fields");
    assert!(flex_contacts > 500, "only {flex_contacts} flex contacts");
    assert!(
        hfield_contacts > 250,
        "only {hfield_contacts} height field contacts"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The differences of the trajectory of `case` from MuJoCo's.
fn trajectory_differences(name: &str, case: &Value, source: Source) -> Vec<String> {
    let mut failures = Vec::new();
    let traj = &case["traj"];
    let every = traj["every"].as_u64().unwrap() as usize;
    let steps = traj["steps"].as_u64().unwrap() as usize;
    with_case(case, source, |m, d| {
        for i in 0..steps {
            mjrs_core::step(m, d).unwrap_or_else(|e| panic!("{name} step {i}: {e}"));
            if (i + 1) % every == 0 {
                let r = (i + 1) / every - 1;
                let at = format!("{name} step {}", i + 1);
                failures.extend(differ(&format!("{at} qpos"), d.qpos, &traj["qpos"][r]));
                failures.extend(differ(&format!("{at} qvel"), d.qvel, &traj["qvel"][r]));
            }
        }
    });
    failures
}

#[test]
fn trajectories_are_bit_for_bit() {
    let mut failures = Vec::new();
    for (name, case) in cases() {
        failures.extend(trajectory_differences(&name, &case, Source::Fixture));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The height field models compiled by mjrs from XML give MuJoCo's contacts, rows and
/// trajectories too.
#[test]
fn hfield_models_from_xml_are_bit_for_bit() {
    let mut failures = Vec::new();
    let mut n = 0;
    for (name, case) in cases() {
        if ["hfield_cloth", "hfield_softbox", "hfield_rope"].contains(&name.as_str()) {
            failures.extend(data_differences(&name, &case, Source::Xml));
            failures.extend(trajectory_differences(&name, &case, Source::Xml));
            n += 1;
        }
    }
    assert_eq!(n, 3);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// MuJoCo compiles a 1x1 height field (it has no grid cells: no contacts); its MJB loads in
/// mjrs and gives the `hfield_rope1x1_xml` case's data and trajectory, as the XML does.
#[test]
fn one_by_one_hfield_mjb_loads_and_agrees() {
    let (name, mut case) = cases()
        .into_iter()
        .find(|(name, _)| name == "hfield_rope1x1_xml")
        .unwrap();
    case["model"] = "hfield_rope1x1.mjb".into();
    let mut failures = data_differences(&name, &case, Source::Fixture);
    failures.extend(trajectory_differences(&name, &case, Source::Fixture));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Self-collision in an arena too small for its scratch, or with room for few contacts: each
/// step ends with an arena error or runs with contacts dropped (`WARN_CONTACTFULL`), never a
/// panic or an allocation.
#[test]
fn small_arenas_give_errors_not_panics() {
    for (model, mode) in [
        ("cloth.mjb", 1),
        ("cloth.mjb", 2),
        ("cloth.mjb", 3),
        ("softbox.mjb", 3),
    ] {
        for narena in [2_000usize, 20_000, 60_000, 200_000] {
            let mut blob = std::fs::read(fixtures().join("flex_collision").join(model)).unwrap();
            // narena is the size_t after the 76 int sizes of the header
            let at = 4 * (5 + 76);
            blob[at..at + 8].copy_from_slice(&(narena as u64).to_le_bytes());
            let header = mjb::read_header(&blob).unwrap();
            let mut mbuf = vec![0u8; header.model_bytes().unwrap()];
            let mut m = mjb::load(&blob, &mut mbuf).unwrap();
            assert_eq!(m.narena, narena);
            m.flex_selfcollide.fill(mode);
            let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
            let mut d = Data::new(&m, &mut dbuf).unwrap();
            let mut errors = 0;
            for _ in 0..150 {
                match mjrs_core::step(&m, &mut d) {
                    Ok(()) => {}
                    Err(mjrs_core::StepError::Arena(_)) => errors += 1,
                    Err(e) => panic!("{model} narena {narena}: {e}"),
                }
            }
            let full = d.warning[mjrs_core::types::WARN_CONTACTFULL as usize].number;
            println!("{model} mode {mode} narena {narena}: {errors} arena errors, {full} full");
            if narena <= 2_000 {
                assert!(errors > 0, "{model} narena {narena}: no error");
            }
        }
    }
}

/// Contacts of condim 6 on flex elements: the rows of sparse Jacobians are those of dense ones
/// bit for bit, rotational rows included (MuJoCo 3.1.6 fills the sparse rotational rows from
/// uninitialized memory, see `jac_sum`; the dense ones are compared with MuJoCo above).
#[test]
fn sparse_element_rows_equal_dense_rows() {
    let blob = std::fs::read(fixtures().join("flex_collision/cloth.mjb")).unwrap();
    let header = mjb::read_header(&blob).unwrap();
    let (mut mbuf1, mut mbuf2) = (
        vec![0u8; header.model_bytes().unwrap()],
        vec![0u8; header.model_bytes().unwrap()],
    );
    let mut dense = mjb::load(&blob, &mut mbuf1).unwrap();
    let mut sparse = mjb::load(&blob, &mut mbuf2).unwrap();
    for (m, jacobian) in [(&mut dense, 0), (&mut sparse, 1)] {
        m.flex_condim.fill(6);
        m.opt.jacobian = jacobian;
    }
    let mut dbuf1 = vec![0u8; Data::bytes_needed(dense.sizes()).unwrap()];
    let mut dbuf2 = vec![0u8; Data::bytes_needed(sparse.sizes()).unwrap()];
    let mut d1 = Data::new(&dense, &mut dbuf1).unwrap();
    let mut d2 = Data::new(&sparse, &mut dbuf2).unwrap();
    let mut element_rows = 0;
    for step in 0..120 {
        mjrs_core::step(&dense, &mut d1).unwrap();
        if step % 20 != 19 {
            continue;
        }
        d2.qpos.copy_from_slice(d1.qpos);
        d2.qvel.copy_from_slice(d1.qvel);
        mjrs_core::forward(&dense, &mut d1).unwrap();
        mjrs_core::forward(&sparse, &mut d2).unwrap();
        let (a, b) = (efc_lists(&dense, &d1), efc_lists(&sparse, &d2));
        assert_eq!(a.1, b.1, "step {step}: the Jacobians differ");
        let arrays = d1.arena.arrays();
        element_rows += arrays.contact[..d1.ncon]
            .iter()
            .filter(|c| c.elem[1] >= 0 && c.efc_address >= 0)
            .count()
            * 10;
    }
    assert!(element_rows > 100, "only {element_rows} rows on elements");
}
