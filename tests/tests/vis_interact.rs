//! MuJoCo's interaction functions (`mjrs_gl::vis::interact`) against MuJoCo 3.1.6 on the
//! sequence of `fixtures/generate-vis-interact.py`: camera, perturbation and model moves,
//! starting and applying perturbations, room/model transformations, bit for bit.

use mjrs_gl::vis::{self, interact, Camera, Perturb, Scene, VisOption};
use mjrs_tests::{fixtures, read_json};
use serde_json::Value;

fn reals(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn same(ours: &[f64], reference: &Value, what: &str) {
    assert_eq!(ours, reals(reference).as_slice(), "{what}");
}

fn check_perturb(p: &Perturb, r: &Value, what: &str) {
    same(&p.refpos, &r["refpos"], what);
    same(&p.refquat, &r["refquat"], what);
    same(&p.refselpos, &r["refselpos"], what);
    assert_eq!(p.localmass, r["localmass"].as_f64().unwrap(), "{what}");
    assert_eq!(p.scale, r["scale"].as_f64().unwrap(), "{what}");
}

const CAMERA_MOVES: [(i32, f64, f64); 8] = [
    (1, 0.1, -0.05),
    (2, -0.3, 0.2),
    (3, 0.05, 0.02),
    (4, -0.02, 0.04),
    (5, 0.0, 0.1),
    (1, 1.5, 0.9),
    (5, 0.0, -3.0),
    (3, 0.3, -0.1),
];
const PERTURB_MOVES: [(i32, f64, f64); 5] = [
    (3, 0.02, -0.01),
    (4, 0.01, 0.03),
    (1, 0.05, 0.02),
    (2, -0.3, 0.4),
    (2, 0.6, 0.1),
];
const SELECT_POINTS: [(f64, f64); 6] = [
    (0.5, 0.5),
    (0.5, 0.6),
    (0.5, 0.65),
    (0.5, 0.7),
    (0.5, 0.75),
    (0.9, 0.1),
];
const MODEL_MOVES: [(i32, f64, f64); 5] = [
    (1, 0.1, 0.05),
    (2, -0.2, 0.1),
    (3, 0.05, -0.02),
    (4, -0.03, 0.01),
    (5, 0.0, 0.2),
];

#[test]
fn interaction_equals_mujoco() {
    let r = read_json(&fixtures().join("scene").join("interact.json"));
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/humanoid.xml");
    let mut owned = mjrs_xml::load_xml(&path, None).unwrap().model;
    let m = owned.view();
    let mut data = mjrs::simulate::new_data(&m, None).unwrap();
    let mut d = data.view();
    mjrs::stepping::run_control(&m, &mut d, 30).unwrap();
    mjrs_core::forward(&m, &mut d).unwrap();
    let (opt, mut pert) = (VisOption::default(), Perturb::default());
    let (mut cam, mut scn) = (Camera::default_free(&m), Scene::new(1000));
    let update = |d: &mut mjrs_core::Data, cam: &mut Camera, scn: &mut Scene| {
        vis::update_scene(&m, d, &opt, &Perturb::default(), cam, vis::CAT_ALL, scn).unwrap();
    };
    update(&mut d, &mut cam, &mut scn);
    assert_eq!(
        interact::frustum_height(&scn).unwrap(),
        r["frustum_height"].as_f64().unwrap()
    );
    let (head, fwd, up) = interact::camera_in_room(&scn).unwrap();
    for (k, v) in [head, fwd, up].iter().enumerate() {
        same(v, &r["camera_in_room"][k], "camera_in_room");
    }
    for (i, (relx, rely)) in SELECT_POINTS.into_iter().enumerate() {
        let hit = interact::select(&m, &mut d, &opt, 4.0 / 3.0, relx, rely, &scn).unwrap();
        let s = &r["select"][i];
        let h = hit.unwrap_or_else(|| panic!("select {i}: MuJoCo hit body {}", s["body"]));
        let expected = (
            s["body"].as_i64().unwrap() as i32,
            s["geom"].as_i64().unwrap() as i32,
        );
        assert_eq!((h.body, h.geom), expected, "select {i}");
        same(&h.point, &s["point"], &format!("select {i}"));
    }
    let bodies: Vec<i64> = (0..SELECT_POINTS.len())
        .map(|i| r["select"][i]["body"].as_i64().unwrap())
        .collect();
    assert!(bodies.iter().filter(|&&b| b > 0).count() >= 3, "{bodies:?}");
    let mut up_cam = Camera {
        elevation: 30.0,
        ..Camera::default_free(&m)
    };
    let mut up_scn = Scene::new(1000);
    update(&mut d, &mut up_cam, &mut up_scn);
    assert_eq!(r["select_up"].as_i64(), Some(-1));
    assert_eq!(
        interact::select(&m, &mut d, &opt, 4.0 / 3.0, 0.5, 0.9, &up_scn).unwrap(),
        None
    );
    same(
        &interact::align_to_camera(&[0.3, -0.2, 0.5], &fwd),
        &r["align"],
        "align",
    );

    for (i, (action, dx, dy)) in CAMERA_MOVES.into_iter().enumerate() {
        interact::move_camera(&m, action, dx, dy, &scn, &mut cam).unwrap();
        update(&mut d, &mut cam, &mut scn);
        let c = &r["camera_moves"][i];
        same(&cam.lookat, &c["lookat"], "lookat");
        let what = format!("camera move {i}");
        assert_eq!(cam.distance, c["distance"].as_f64().unwrap(), "{what}");
        assert_eq!(cam.azimuth, c["azimuth"].as_f64().unwrap(), "{what}");
        assert_eq!(cam.elevation, c["elevation"].as_f64().unwrap(), "{what}");
    }

    pert.select = 1;
    pert.localpos = [0.05, -0.02, 0.1];
    interact::init_perturb(&m, &d, &scn, &mut pert).unwrap();
    check_perturb(&pert, &r["init_perturb"], "init_perturb");
    for (i, (action, dx, dy)) in PERTURB_MOVES.into_iter().enumerate() {
        interact::move_perturb(&m, &d, action, dx, dy, &scn, &mut pert).unwrap();
        check_perturb(&pert, &r["perturb_moves"][i], &format!("perturb move {i}"));
    }
    pert.active = 3;
    interact::apply_perturb_force(&m, &mut d, &pert).unwrap();
    same(d.xfrc_applied, &r["xfrc_applied"], "xfrc_applied");
    pert.active = 2;
    interact::apply_perturb_force(&m, &mut d, &pert).unwrap();
    same(
        d.xfrc_applied,
        &r["xfrc_applied_rotate"],
        "xfrc_applied (rotation)",
    );
    interact::apply_perturb_pose(&m, &mut d, &pert, true).unwrap();
    same(d.qpos, &r["qpos_paused"], "qpos (free body)");
    pert.select = 5;
    interact::init_perturb(&m, &d, &scn, &mut pert).unwrap();
    pert.refpos[2] += 0.1;
    pert.active = 1;
    interact::apply_perturb_pose(&m, &mut d, &pert, true).unwrap();
    same(d.qpos, &r["qpos_child"], "qpos (child of a free body)");

    scn.enabletransform = 1;
    scn.translate = [0.1, -0.2, 0.3];
    scn.rotate = [0.9, 0.1, -0.3, 0.2];
    scn.scale = 0.5;
    for (i, (action, dx, dy)) in MODEL_MOVES.into_iter().enumerate() {
        interact::move_model(&m, action, dx, dy, &[0.0, 0.0, 1.0], &mut scn).unwrap();
        let c = &r["model_moves"][i];
        let f64s = |v: &[f32]| v.iter().map(|&x| f64::from(x)).collect::<Vec<_>>();
        same(
            &f64s(&scn.translate),
            &c["translate"],
            &format!("model move {i}"),
        );
        same(&f64s(&scn.rotate), &c["rotate"], &format!("model move {i}"));
        assert_eq!(f64::from(scn.scale), c["scale"].as_f64().unwrap());
    }
    let (head, fwd, up) = interact::camera_in_model(&scn).unwrap();
    for (k, v) in [head, fwd, up].iter().enumerate() {
        same(v, &r["camera_in_model"][k], "camera_in_model");
    }
    let (pos, quat) = ([0.2, 0.4, -0.1], [0.8, 0.2, 0.1, -0.3]);
    let (p, q) = interact::room_to_model(&scn, &pos, &quat).unwrap();
    same(&p, &r["room2model"][0], "room2model");
    same(&q, &r["room2model"][1], "room2model");
    let (p, q) = interact::model_to_room(&scn, &pos, &quat).unwrap();
    same(&p, &r["model2room"][0], "model2room");
    same(&q, &r["model2room"][1], "model2room");
}

#[test]
fn bad_actions_and_unset_scenes_are_errors() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/hopper.xml");
    let mut owned = mjrs_xml::load_xml(&path, None).unwrap().model;
    let m = owned.view();
    let scn = Scene::new(10);
    let mut cam = Camera::default_free(&m);
    // a scene whose cameras were never set has no frustum
    assert!(interact::move_camera(&m, interact::mouse::MOVE_V, 0.1, 0.1, &scn, &mut cam).is_err());
    assert!(interact::frustum_height(&scn).is_err());
    assert_eq!(
        interact::move_camera(&m, 42, 0.1, 0.1, &scn, &mut cam),
        Err(vis::SceneError::BadAction(42))
    );
    // a fixed camera does not move, whatever the action
    let mut fixed = Camera {
        type_: vis::camera_type::FIXED,
        ..Camera::default()
    };
    assert!(interact::move_camera(&m, 42, 0.1, 0.1, &scn, &mut fixed).is_ok());
}

#[test]
fn data_of_another_model_is_an_error() {
    let load = |name: &str| {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("models")
            .join(name);
        mjrs_xml::load_xml(&path, None).unwrap().model
    };
    let (mut hopper, mut humanoid) = (load("hopper.xml"), load("humanoid.xml"));
    let (m, other) = (hopper.view(), humanoid.view());
    let mut data = mjrs::simulate::new_data(&other, None).unwrap();
    let mut d = data.view();
    let (opt, mut pert) = (
        VisOption::default(),
        Perturb {
            select: 1,
            active: 3,
            ..Perturb::default()
        },
    );
    let (mut cam, mut scn) = (Camera::default_free(&m), Scene::new(100));
    let mismatch = Err(vis::SceneError::ModelMismatch);
    assert_eq!(
        vis::update_scene(&m, &mut d, &opt, &pert, &mut cam, vis::CAT_ALL, &mut scn),
        mismatch
    );
    assert_eq!(vis::update_camera(&m, &d, &mut cam, &mut scn), mismatch);
    assert_eq!(interact::apply_perturb_force(&m, &mut d, &pert), mismatch);
    assert_eq!(
        interact::apply_perturb_pose(&m, &mut d, &pert, true),
        mismatch
    );
    assert_eq!(interact::init_perturb(&m, &d, &scn, &mut pert), mismatch);
    assert_eq!(
        interact::select(&m, &mut d, &opt, 1.0, 0.5, 0.5, &scn).map(|_| ()),
        mismatch
    );
}
