//! `mjrs simulate|traj|data|speed --f32` run the f32 core on the model converted as
//! `mjrs compile --f32` converts it: every number they print is an f32, they track the f64
//! core's numbers, and a bad keyframe is an error in both precisions.

use mjrs_alloc::OwnedModel;
use serde_json::Value;
use std::path::Path;

fn model(name: &str) -> OwnedModel {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("models")
        .join(name);
    mjrs_xml::load_xml(&path, None).unwrap().model
}

/// Every number in a JSON list of lists.
fn numbers(v: &Value) -> Vec<f64> {
    match v {
        Value::Array(items) => items.iter().flat_map(numbers).collect(),
        Value::Number(n) => vec![n.as_f64().unwrap()],
        _ => vec![],
    }
}

fn traj(m: &mjrs_core::Model, f32: bool) -> Value {
    let json = if f32 {
        mjrs::f32::with_f32(m, None, |m, d, _| {
            mjrs::f32::stepping::traj(m, d, 100, false, 1)
        })
    } else {
        let mut data = mjrs::simulate::new_data(m, None).unwrap();
        let json = mjrs::stepping::traj(m, &mut data.view(), 100, false, 1);
        json
    };
    serde_json::from_str(&json.unwrap()).unwrap()
}

#[test]
fn f32_traj_is_f32_and_tracks_f64() {
    for name in [
        "hopper.xml",
        "inverted_double_pendulum.xml",
        "rollout_arm.xml",
    ] {
        let mut owned = model(name);
        let m = owned.view();
        let (t32, t64) = (traj(&m, true), traj(&m, false));
        for field in ["time", "qpos", "qvel", "ctrl"] {
            let (a, b) = (numbers(&t32[field]), numbers(&t64[field]));
            assert_eq!(a.len(), b.len(), "{name} {field}");
            assert!(!a.is_empty(), "{name} {field}");
            for (x, y) in a.iter().zip(&b) {
                // the f32 core computed it: the value is an f32
                assert_eq!(
                    f64::from(*x as f32),
                    *x,
                    "{name} {field}: {x} is not an f32"
                );
                assert!(
                    (x - y).abs() <= 1e-3 * (1.0 + y.abs()),
                    "{name} {field}: {x} vs {y}"
                );
            }
        }
        // the two cores do not agree bit for bit (else --f32 would not be running f32)
        assert_ne!(t32["qpos"], t64["qpos"], "{name}");
    }
}

#[test]
fn f32_data_has_every_field_of_f64_data() {
    let mut owned = model("rollout_arm.xml");
    let m = owned.view();
    let d32: Value = serde_json::from_str(
        &mjrs::f32::with_f32(&m, None, |m, d, _| mjrs::f32::stepping::data(m, d, 20)).unwrap(),
    )
    .unwrap();
    let mut data = mjrs::simulate::new_data(&m, None).unwrap();
    let d64: Value =
        serde_json::from_str(&mjrs::stepping::data(&m, &mut data.view(), 20).unwrap()).unwrap();
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&d32), keys(&d64));
    assert_eq!(d32["ncon"], d64["ncon"]);
}

#[test]
fn f32_speed_reports_f32_data_bytes_and_bad_keys_are_errors() {
    let mut owned = model("hopper.xml");
    let m = owned.view();
    let speed = mjrs::f32::with_f32(&m, None, |m, d, bytes| {
        mjrs::f32::stepping::speed(m, d, 10, bytes)
    })
    .unwrap();
    let speed64 = mjrs::simulate::speed(&m, 10, None, None).unwrap();
    assert_eq!(speed.steps, 10);
    assert!(
        speed.data_bytes < speed64.data_bytes,
        "{} vs {}",
        speed.data_bytes,
        speed64.data_bytes
    );
    let err = mjrs::f32::with_f32(&m, Some(7), |_, _, _| Ok(())).unwrap_err();
    assert!(err.contains("keyframe 7 does not exist"), "{err}");
}

/// A mesh SDF (`mujoco.sdf.sdflib`) on the f32 core: the f32 command line builds the octree of
/// the mesh as the f32 core sees it (its own builder; without one the model would be refused
/// with "no builder is set"), and the primitives dropped on the wedge land on it as in f64
/// (150 steps, through their first contacts; later the rolling on the slanted top diverges).
#[test]
fn f32_runs_the_mesh_sdf() {
    let mut owned = model("plugin/sdflib/wedge.xml");
    let m = owned.view();
    let steps = 150;
    let (qpos32, contacts) = mjrs::f32::with_f32(&m, None, |m, d, _| {
        let mut contacts = 0;
        for _ in 0..steps {
            mjrs_core_f32::step(m, d).map_err(|e| e.to_string())?;
            contacts += d.ncon;
        }
        Ok((
            d.qpos.iter().map(|&x| f64::from(x)).collect::<Vec<_>>(),
            contacts,
        ))
    })
    .unwrap();
    let mut data = mjrs::simulate::new_data(&m, None).unwrap();
    let mut d = data.view();
    for _ in 0..steps {
        mjrs_core::step(&m, &mut d).unwrap();
    }
    assert!(contacts > 100, "{contacts} contacts");
    let largest = qpos32
        .iter()
        .zip(d.qpos.iter())
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    println!("f32 qpos within {largest:e} of f64 after {steps} steps, {contacts} contacts");
    assert!(largest < 1e-3, "f32 qpos differs from f64 by {largest:e}");
}
