//! Flexes in the abstract scene (`mjrs_gl::vis::update_scene`) against MuJoCo 3.1.6's
//! `mjv_updateScene` (fixtures from generate-scene-flex.py): the flex geoms, flex bounding
//! volumes and every flex array of the scene bit for bit, on MuJoCo's `flex.xml` and a model
//! with flexes of every dimension, with the flex flags, layers, groups, labels, transparency
//! and selection toggled. The face positions and normals are compared through the SHA-256 of
//! their float bytes. Picking (`mjv_select`, with `mju_rayFlex`) hits the same geom, flex or
//! vertex body at the same point, on a grid of viewport points and on points over flex
//! vertices, and a flex pick scales the perturbation mass as `mjv_initPerturb` does.

use mjrs_core::Model;
use mjrs_gl::vis::{self, interact, Camera, Perturb, Scene, VisOption};
use mjrs_tests::sha256::sha256_hex;
use mjrs_tests::{fixtures, plugin_traj, read_json};
use serde_json::Value;

const CASES: [&str; 14] = [
    "flex_default",
    "flex_faces",
    "flex_layer1",
    "flex_vert_edge",
    "flex_all",
    "flex_bvh",
    "flex_bvh_deep",
    "flex_hidden",
    "shapes_default",
    "shapes_faces",
    "shapes_layer2",
    "shapes_label",
    "shapes_transparent",
    "shapes_bvh",
];

/// Fields of a fixture that describe the case rather than the scene.
const META: [&str; 4] = ["flags", "option", "qpos", "select"];

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap())
        .collect()
}

/// The options and perturbation a fixture was made with.
fn options_of(reference: &Value) -> (VisOption, Perturb) {
    let mut opt = VisOption::default();
    for (k, f) in ints(&reference["flags"]).into_iter().enumerate() {
        opt.flags[k] = f as u8;
    }
    let o = &reference["option"];
    opt.bvh_depth = o["bvh_depth"].as_i64().unwrap() as i32;
    opt.flex_layer = o["flex_layer"].as_i64().unwrap() as i32;
    opt.label = o["label"].as_i64().unwrap() as i32;
    for (k, g) in ints(&o["flexgroup"]).into_iter().enumerate() {
        opt.flexgroup[k] = g as u8;
    }
    let pert = Perturb {
        flexselect: o["flexselect"].as_i64().unwrap() as i32,
        ..Perturb::default()
    };
    (opt, pert)
}

/// The scene of case `name` of model `m`: the fixture's state, forward, then the update; then
/// the fixture's picks (`mjv_select`, and `mjv_initPerturb` on flex hits) compared.
fn scene_of(m: &Model, reference: &Value, name: &str) -> Scene {
    let mut data = mjrs::simulate::new_data(m, None).unwrap();
    let mut d = data.view();
    for (q, v) in d.qpos.iter_mut().zip(reference["qpos"].as_array().unwrap()) {
        *q = v.as_f64().unwrap();
    }
    mjrs_core::forward(m, &mut d).unwrap_or_else(|e| panic!("{name}: {e}"));
    let (opt, pert) = options_of(reference);
    let (mut cam, mut scn) = (Camera::default_free(m), Scene::new(10000));
    vis::update_scene(m, &mut d, &opt, &pert, &mut cam, vis::CAT_ALL, &mut scn)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    // the same scene from a scene state (mjv_updateSceneState, mjv_updateSceneFromState)
    let mut state = vis::SceneState::new(m, 10000).unwrap();
    state.update(m, &mut d).unwrap();
    let (mut cam2, mut from_state) = (Camera::default_free(m), Scene::new(10000));
    vis::update_scene_from_state(
        &mut state,
        &opt,
        &pert,
        &mut cam2,
        vis::CAT_ALL,
        &mut from_state,
    )
    .unwrap();
    assert!(
        from_state == scn,
        "{name}: the scene from the state differs"
    );
    for (k, hit) in reference["select"].as_array().unwrap().iter().enumerate() {
        let at = hit["at"].as_array().unwrap();
        let (relx, rely) = (at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
        let ours = interact::select(m, &mut d, &opt, 4.0 / 3.0, relx, rely, &scn)
            .unwrap_or_else(|e| panic!("{name}: select {k}: {e}"));
        let what = format!("{name}: select {k}");
        let int = |f: &str| hit[f].as_i64().unwrap() as i32;
        let Some(s) = ours else {
            assert_eq!(int("body"), -1, "{what}");
            continue;
        };
        assert_eq!(
            (s.body, s.geom, s.flex, s.skin),
            (int("body"), int("geom"), int("flex"), int("skin")),
            "{what}"
        );
        let point: Vec<f64> = hit["point"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        assert_eq!(s.point.to_vec(), point, "{what}");
        if let Some(mass) = hit["localmass"].as_f64() {
            let mut p = Perturb {
                select: s.body,
                flexselect: s.flex,
                ..Perturb::default()
            };
            interact::init_perturb(m, &d, &scn, &mut p).unwrap();
            assert_eq!(p.localmass, mass, "{what}: localmass");
        }
    }
    scn
}

/// SHA-256 of the floats of the faces each flex uses, `per_face` floats a face.
fn face_hashes(scn: &Scene, v: &[f32], per_face: usize) -> Vec<Value> {
    (0..scn.nflex)
        .map(|f| {
            let adr = per_face * scn.flexfaceadr[f] as usize;
            let n = per_face * scn.flexfaceused[f] as usize;
            let bytes: Vec<u8> = v[adr..adr + n]
                .iter()
                .flat_map(|x| x.to_le_bytes())
                .collect();
            Value::from(sha256_hex(&bytes))
        })
        .collect()
}

#[test]
fn flex_scenes_equal_the_reference() {
    let mut compared = 0;
    for name in CASES {
        let reference = read_json(&fixtures().join("scene").join(format!("flex-{name}.json")));
        let model = name.split('_').next().unwrap();
        let blob =
            std::fs::read(fixtures().join("scene").join(format!("flex-{model}.mjb"))).unwrap();
        let mut buf = Vec::new();
        let m = plugin_traj::load(&blob, &mut buf);
        let scn = scene_of(&m, &reference, name);
        let ours: Value = serde_json::from_str(&mjrs::scene::scene_to_json(&scn)).unwrap();
        for (field, value) in reference.as_object().unwrap() {
            if META.contains(&field.as_str()) {
                continue;
            }
            let mine = match field.as_str() {
                "flexface.sha256" => Value::from(face_hashes(&scn, &scn.flexface, 9)),
                "flexnormal.sha256" => Value::from(face_hashes(&scn, &scn.flexnormal, 9)),
                _ => ours[field].clone(),
            };
            assert_eq!(&mine, value, "{name}: {field}");
            compared += 1;
        }
        // the cases without flex flags check that flexes stay out of the scene
        let shown = scn
            .geoms
            .iter()
            .any(|g| g.type_ == mjrs_core::types::GEOM_FLEX);
        assert_eq!(shown, reference.get("flexvert").is_some(), "{name}");
    }
    assert!(compared > 14 * 30, "{compared} fields");
}

#[test]
fn one_scene_follows_models_with_and_without_flexes() {
    // a scene keeps its flex arrays only while they fit the model it is updated with
    let blob = std::fs::read(fixtures().join("scene").join("flex-shapes.mjb")).unwrap();
    let mut buf = Vec::new();
    let m = plugin_traj::load(&blob, &mut buf);
    let mut data = mjrs::simulate::new_data(&m, None).unwrap();
    let mut d = data.view();
    mjrs_core::forward(&m, &mut d).unwrap();
    let mut plain = mjrs_tests::compile_model("hopper.xml");
    let hopper = plain.view();
    let mut hdata = mjrs::simulate::new_data(&hopper, None).unwrap();
    let mut hd = hdata.view();
    mjrs_core::forward(&hopper, &mut hd).unwrap();
    let (opt, pert) = (VisOption::default(), Perturb::default());
    let update = |m: &Model, d: &mut mjrs_core::Data, scn: &mut Scene| {
        let mut cam = Camera::default_free(m);
        vis::update_scene(m, d, &opt, &pert, &mut cam, vis::CAT_ALL, scn).unwrap();
    };
    let mut fresh = Scene::new(1000);
    update(&m, &mut d, &mut fresh);
    let mut reused = Scene::new(1000);
    update(&m, &mut d, &mut reused);
    update(&hopper, &mut hd, &mut reused);
    assert_eq!(reused.nflex, 0);
    assert!(reused.flexvert.is_empty() && reused.flexface.is_empty());
    update(&m, &mut d, &mut reused);
    assert_eq!(reused, fresh);
    assert!(fresh.flexfaceused.iter().sum::<i32>() > 0);
}

#[test]
fn ray_flex_refuses_a_flex_that_does_not_exist() {
    let blob = std::fs::read(fixtures().join("scene").join("flex-shapes.mjb")).unwrap();
    let mut buf = Vec::new();
    let m = plugin_traj::load(&blob, &mut buf);
    let mut data = mjrs::simulate::new_data(&m, None).unwrap();
    let d = data.view();
    let parts = mjrs_core::ray::FlexParts::default();
    let err = mjrs_core::ray::ray_flex(&m, &d, parts, m.nflex, &[0.0; 3], &[0.0, 0.0, -1.0]);
    assert_eq!(
        err,
        Err(mjrs_core::ray::RayError::FlexOutOfRange {
            id: m.nflex,
            nflex: m.nflex
        })
    );
}

#[test]
fn nan_flex_state_draws_and_picks_without_panicking() {
    let blob = std::fs::read(fixtures().join("scene").join("flex-shapes.mjb")).unwrap();
    let mut buf = Vec::new();
    let m = plugin_traj::load(&blob, &mut buf);
    let mut data = mjrs::simulate::new_data(&m, None).unwrap();
    let mut d = data.view();
    mjrs_core::forward(&m, &mut d).unwrap();
    // vertices gone bad after kinematics (forward itself resets a NaN qpos)
    d.flexvert_xpos.fill(f64::NAN);
    d.bvh_aabb_dyn.fill(f64::NAN);
    let mut opt = VisOption::default();
    for f in [vis::flag::FLEXVERT, vis::flag::FLEXEDGE, vis::flag::FLEXBVH] {
        opt.flags[f] = 1;
    }
    let (mut cam, mut scn) = (Camera::default_free(&m), Scene::new(1000));
    let pert = Perturb::default();
    vis::update_scene(&m, &mut d, &opt, &pert, &mut cam, vis::CAT_ALL, &mut scn).unwrap();
    assert!(scn.flexvert.iter().all(|x| x.is_nan()));
    let _ = interact::select(&m, &mut d, &opt, 1.0, 0.5, 0.5, &scn);
}
