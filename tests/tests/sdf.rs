//! SDF geoms (plugins `mujoco.sdf.*`, `collision::sdf`, rays, the compiler's marching cubes)
//! against MuJoCo 3.1.6 with its SDF plugin library, on MuJoCo's `model/plugin/sdf` models and
//! `sdf_mesh.xml` (mesh, capsule, ellipsoid, cylinder against SDFs), all in
//! `models/plugin/sdf`, listed in `fixtures/sdf/models.txt`; fixtures from
//! `fixtures/sdf/generate.sh`:
//!
//! * the compiled model, every field bit for bit, through a digest of each field of MuJoCo's
//!   model (its MJBs are 15-25 MB of marching-cubes meshes);
//! * contacts, constraint forces and state after 300 steps of mjref's control law and a
//!   forward pass, exactly;
//! * 1000-step trajectories (every 50th step), exactly;
//! * rays (`mj_ray`) against the SDF geoms, exactly;
//! * bad input: values that are not numbers, boxes the marching cubes cannot mesh, too many
//!   contacts, the mesh SDF plugin `mujoco.sdf.sdflib` on a mesh without a file (where MuJoCo
//!   crashes) — MuJoCo's errors or a clear one, never a panic (`plugin_sdflib.rs` tests that
//!   plugin itself);
//! * the f32 build on `sdf_mesh.xml`, to the order of magnitude.

use mjrs_core::layout::Scalar;
use mjrs_tests::model_diff::fields;
use mjrs_tests::{compare, fixtures, read_json};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Fields compared after 300 steps (those `generate.sh` keeps).
const DATA_FIELDS: [&str; 8] = [
    "ncon",
    "contact",
    "qpos",
    "qvel",
    "qacc",
    "efc_force",
    "efc_pos",
    "nefc",
];

/// The manifest: fixture names and model paths.
fn corpus() -> Vec<(String, PathBuf)> {
    let text = std::fs::read_to_string(fixtures().join("sdf/models.txt")).unwrap();
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/plugin/sdf");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let c: Vec<&str> = l.split_whitespace().collect();
            (c[0].to_string(), models.join(c[1]))
        })
        .collect()
}

/// FNV-1a over the fields' values: integers as i64, reals as f64 bits, little endian.
fn digest(values: &[Scalar]) -> String {
    let mut h = mjrs_core::hash::Fnv1a::new();
    for v in values {
        let bytes = match *v {
            Scalar::Int(i) => i.to_le_bytes(),
            Scalar::Real(x) => x.to_bits().to_le_bytes(),
        };
        h.write(&bytes);
    }
    format!("{:016x}", h.finish())
}

/// Field name, length and digest of every field of a model.
fn digests(m: &mjrs_core::Model) -> Vec<(String, usize, String)> {
    fields(m)
        .into_iter()
        .map(|(name, v)| (name, v.len(), digest(&v)))
        .collect()
}

fn compile(path: &Path) -> mjrs_alloc::OwnedModel {
    mjrs_core::plugin::register_first_party();
    mjrs_xml::load_xml(path, None)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .model
}

/// Writes `fixtures/sdf/NAME.model.json` from MuJoCo's MJBs in `$MJRS_SDF_MJB_DIR` (run by
/// `generate.sh`).
#[test]
#[ignore]
fn write_model_digests() {
    mjrs_core::plugin::register_first_party();
    let dir = PathBuf::from(std::env::var("MJRS_SDF_MJB_DIR").unwrap());
    for (name, _) in corpus() {
        let blob = std::fs::read(dir.join(format!("{name}.mjb"))).unwrap();
        let mut m = mjrs_alloc::OwnedModel::from_mjb(&blob).unwrap();
        let rows: Vec<Value> = digests(&m.view())
            .into_iter()
            .map(|(n, len, d)| serde_json::json!([n, len, d]))
            .collect();
        let path = fixtures().join(format!("sdf/{name}.model.json"));
        std::fs::write(path, serde_json::to_string(&rows).unwrap()).unwrap();
    }
}

#[test]
fn sdf_models_compile_like_mujoco_bit_for_bit() {
    let mut failures = Vec::new();
    let mut nfields = 0;
    for (name, path) in corpus() {
        let mut ours = compile(&path);
        let reference = read_json(&fixtures().join(format!("sdf/{name}.model.json")));
        let reference = reference.as_array().unwrap();
        let ours = digests(&ours.view());
        assert_eq!(ours.len(), reference.len(), "{name}: number of fields");
        for ((field, len, d), r) in ours.iter().zip(reference) {
            nfields += 1;
            assert_eq!(field, r[0].as_str().unwrap(), "{name}: field order");
            if *len as u64 != r[1].as_u64().unwrap() || d != r[2].as_str().unwrap() {
                failures.push(format!("{name}: {field} (length {len}, MuJoCo {})", r[1]));
            }
        }
    }
    println!("{nfields} fields compared");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Runs `steps` steps of mjref's control law on the model compiled by mjrs, then `after`.
fn simulate<T>(
    path: &Path,
    steps: usize,
    after: impl Fn(&mjrs_core::Model, &mut mjrs_core::Data) -> T,
) -> (Vec<mjrs_tests::harness::Record>, T) {
    simulate_blob(compile(path).to_mjb(8).unwrap(), steps, after)
}

/// [`simulate`] for a model as MJB bytes.
fn simulate_blob<T>(
    blob: Vec<u8>,
    steps: usize,
    after: impl Fn(&mjrs_core::Model, &mut mjrs_core::Data) -> T,
) -> (Vec<mjrs_tests::harness::Record>, T) {
    mjrs_tests::simulate!(mjrs_core, blob, None::<i32>, steps, |m, d| after(&m, d))
}

#[test]
fn contacts_after_300_steps_match_mujoco() {
    let mut failures = Vec::new();
    for (name, path) in corpus() {
        let (_, ours) = simulate(&path, 300, |m, d| {
            mjrs_core::forward(m, d).unwrap();
            serde_json::from_str::<Value>(&mjrs::dump::data_json(m, d)).unwrap()
        });
        let reference = read_json(&fixtures().join(format!("sdf/{name}.data.json")));
        assert!(
            reference["ncon"].as_u64().unwrap() > 0,
            "{name}: no contacts"
        );
        let mut report = compare(&reference, &ours);
        report.retain(|f| {
            DATA_FIELDS
                .iter()
                .any(|k| f == *k || f.starts_with("contact."))
        });
        report.extra.clear();
        println!("{name}: {} contacts", reference["ncon"]);
        if !report.is_match(0.0) {
            failures.push(format!("{name}:\n{}", report.summary(0.0)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn trajectories_match_mujoco_bit_for_bit() {
    for (name, path) in corpus() {
        let t = read_json(&fixtures().join(format!("sdf/{name}.traj.json")));
        let every = t["every"].as_u64().unwrap() as usize;
        let rows = |k: &str| -> Vec<Vec<f64>> {
            t[k].as_array()
                .unwrap()
                .iter()
                .map(|r| {
                    r.as_array()
                        .unwrap()
                        .iter()
                        .map(|x| x.as_f64().unwrap())
                        .collect()
                })
                .collect()
        };
        let (qpos, qvel) = (rows("qpos"), rows("qvel"));
        let (run, ()) = simulate(&path, 1000, |_, _| ());
        let rec: Vec<_> = run.iter().skip(every - 1).step_by(every).collect();
        assert_eq!(rec.len(), qpos.len(), "{name}");
        for (k, r) in rec.iter().enumerate() {
            assert_eq!(r.1, qpos[k], "{name}: qpos at record {k}");
            assert_eq!(r.2, qvel[k], "{name}: qvel at record {k}");
        }
        println!("{name}: 1000 steps identical");
    }
}

#[test]
fn rays_against_sdf_geoms_match_mujoco() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/plugin/sdf/sdf_mesh.xml");
    let (_, ()) = simulate(&path, 0, |m, d| {
        mjrs_core::forward(m, d).unwrap();
        let rays = read_json(&fixtures().join("sdf/rays.json"));
        let mut hits = 0;
        for r in rays["rays"].as_array().unwrap() {
            let v: Vec<f64> = r.as_array().unwrap()[..7]
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect();
            let geom = r[7].as_i64().unwrap() as i32;
            let pnt = [v[0], v[1], v[2]];
            let vec = [v[3], v[4], v[5]];
            let (dist, id) = mjrs_core::ray::ray(m, d, &pnt, &vec, None, true, -1).unwrap();
            assert_eq!((dist, id), (v[6], geom), "ray from {pnt:?} along {vec:?}");
            if id >= 0 && m.geom_type[id as usize] == mjrs_core::types::GEOM_SDF {
                hits += 1;
            }
        }
        assert!(hits > 50, "only {hits} rays hit SDF geoms");
    });
}

// ------------------------------------------------------------------------------------------------
// bad input

/// A one-torus model whose `radius1` is `value`, with `extra` in the world body.
fn torus_model(value: &str, extra: &str) -> String {
    format!(
        r#"<mujoco>
  <extension><plugin plugin="mujoco.sdf.torus"><instance name="torus">
    <config key="radius1" value="{value}"/></instance></plugin></extension>
  <asset><mesh name="torus"><plugin instance="torus"/></mesh></asset>
  <option sdf_initpoints="200" sdf_iterations="1"/>
  <worldbody>
    <body><freejoint/><geom type="sdf" mesh="torus"><plugin instance="torus"/></geom></body>
    {extra}
  </worldbody>
</mujoco>"#
    )
}

fn compile_str(xml: &str) -> Result<mjrs_alloc::OwnedModel, String> {
    mjrs_core::plugin::register_first_party();
    let dir = std::env::temp_dir().join(format!("mjrs-sdf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("m{:016x}.xml", {
        let mut h = 0u64;
        for b in xml.bytes() {
            h = h.wrapping_mul(31).wrapping_add(u64::from(b));
        }
        h
    }));
    std::fs::write(&path, xml).unwrap();
    let out = mjrs_xml::load_xml(&path, None)
        .map(|c| c.model)
        .map_err(|e| e.to_string());
    std::fs::remove_file(&path).ok();
    out
}

#[test]
fn attribute_values_that_are_not_numbers_are_refused_as_mujoco() {
    // MuJoCo 3.1.6: "invalid attribute value for 'radius1'" while compiling the mesh
    for value in ["abc", " "] {
        let err = compile_str(&torus_model(value, "")).err().unwrap();
        assert!(
            err.contains("invalid attribute value for 'radius1'"),
            "{value:?}: {err}"
        );
    }
    // a number with trailing text meshes (std::stod) but fails the plugin's init (MuJoCo:
    // "plugin->init failed" at mj_makeData, after the plugin's warning)
    let err = compile_str(&torus_model("1x", "")).err().unwrap();
    assert!(
        err.contains("Invalid radius1 or radius2 parameters in Torus plugin"),
        "{err}"
    );
}

#[test]
fn fields_the_marching_cubes_cannot_mesh_are_refused() {
    // a negative radius gives a box of negative extent (MuJoCo throws from `new[]`), a huge one
    // a grid with no surface, NaN no grid at all (MuJoCo crashes): no vertices, MuJoCo's
    // "at least 4 vertices required"
    for value in ["-1", "1e300", "nan", "inf"] {
        let err = compile_str(&torus_model(value, "")).err().unwrap();
        assert!(
            err.contains("at least 4 vertices required"),
            "{value}: {err}"
        );
    }
}

#[test]
fn more_contacts_than_a_pair_holds_is_mujocos_fatal_error() {
    // two coincident tori, 200 starting points: MuJoCo's "mjc_SDF: too many contact points"
    let xml = torus_model(
        "0.35",
        r#"<geom type="sdf" mesh="torus" pos="0 0 0.01"><plugin instance="torus"/></geom>"#,
    );
    let mut model = compile_str(&xml).unwrap();
    let blob = model.to_mjb(8).unwrap();
    let (_, err) = simulate_blob(blob, 0, |m, d| mjrs_core::forward(m, d).err());
    assert_eq!(
        err,
        Some(mjrs_core::StepError::Numerical("too many contact points"))
    );
}

#[test]
fn the_mesh_sdf_plugin_without_a_mesh_file_is_a_clear_error() {
    let xml = r#"<mujoco>
  <extension><plugin plugin="mujoco.sdf.sdflib"><instance name="sdf"/></plugin></extension>
  <asset>
    <mesh name="box" vertex="0 0 0  1 0 0  0 1 0  0 0 1"><plugin instance="sdf"/></mesh>
  </asset>
  <worldbody><geom type="sdf" mesh="box"><plugin instance="sdf"/></geom></worldbody>
</mujoco>"#;
    let err = compile_str(xml).err().unwrap();
    assert!(
        err.contains("needs a mesh file") && err.contains("mujoco.sdf.sdflib"),
        "{err}"
    );
}

/// The single-precision build runs the SDF colliders too (the descent's arithmetic differs from
/// MuJoCo's double precision, so only the order of magnitude is checked): 1000 steps of
/// `sdf_mesh.xml` stay finite, within 1e-4 of MuJoCo's positions after 100 steps (1.4e-6
/// measured).
#[test]
fn f32_build_collides_sdf_geoms() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/plugin/sdf/sdf_mesh.xml");
    let blob = compile(&path).to_mjb(8).unwrap();
    // the f32 core is another crate with its own registry
    mjrs_core_f32::plugin::register_first_party();
    let t = read_json(&fixtures().join("sdf/sdf_mesh.traj.json"));
    let every = t["every"].as_u64().unwrap() as usize;
    let reference: Vec<f64> = t["qpos"][100 / every - 1]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    let (run, ncon) = mjrs_tests::simulate!(mjrs_core_f32, blob, None::<i32>, 1000, |m, d| d.ncon);
    let at100: Vec<f64> = run[99].1.iter().map(|&x| f64::from(x)).collect();
    let worst = at100
        .iter()
        .zip(&reference)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    println!("f32: largest qpos difference after 100 steps {worst:.2e}, {ncon} contacts at 1000");
    assert!(worst < 1e-4, "{worst}");
    assert!(ncon > 0);
    assert!(run.iter().all(|r| r.1.iter().all(|x| x.is_finite())));
}
