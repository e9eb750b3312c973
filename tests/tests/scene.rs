//! The abstract scene (`mjrs_gl::vis::update_scene`) against `mjref scene` (MuJoCo 3.1.6's
//! `mjv_updateScene`, default options and free camera): every geom and light field bit for bit
//! on the models of `fixtures/scene-models.txt`. Categories not drawn yet are errors, a full
//! scene drops geoms with MuJoCo's warning, and the camera types place the eyes as MuJoCo does.

use mjrs_core::{Data, Model};
use mjrs_gl::vis::{self, camera_type, Camera, Perturb, Scene, SceneError, SceneState, VisOption};
use mjrs_tests::{compile_model as compile, fixtures, read_json};

#[test]
fn scenes_equal_the_reference() {
    let list = std::fs::read_to_string(fixtures().join("scene-models.txt")).unwrap();
    let mut checked = 0;
    for line in list
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (name, xml, key, steps) = (f[0], f[1], f[2], f[3].parse::<usize>().unwrap());
        let mut owned = compile(xml);
        let m = owned.view();
        let key = (key != "-").then(|| key.parse::<i32>().unwrap());
        let mut data = mjrs::simulate::new_data(&m, key).unwrap();
        let mut d = data.view();
        mjrs::stepping::run_control(&m, &mut d, steps).unwrap();
        mjrs_core::forward(&m, &mut d).unwrap();
        let ours: serde_json::Value =
            serde_json::from_str(&mjrs::scene::scene_json(&m, &mut d).unwrap()).unwrap();
        let reference = read_json(&fixtures().join("scene").join(format!("{name}.json")));
        for (field, value) in reference.as_object().unwrap() {
            assert_eq!(&ours[field], value, "{name}: {field}");
        }
        let (opt, pert) = (VisOption::default(), Perturb::default());
        assert_state_gives_the_same_scene(&m, &mut d, &opt, &pert, name);
        assert_eq!(
            ours.as_object().unwrap().len(),
            reference.as_object().unwrap().len()
        );
        checked += 1;
    }
    assert!(checked >= 17, "{checked} scenes");
}

#[test]
fn flex_and_sdf_flags_change_nothing_without_flexes_or_sdfs() {
    // as in MuJoCo 3.1.6: the flex flags draw flexes only, and SDFITER is not read by the
    // scene update (these flags were once refused as undrawn)
    let mut owned = compile("hopper.xml");
    let m = owned.view();
    let mut data = mjrs::simulate::new_data(&m, None).unwrap();
    let mut d = data.view();
    let mut scene = |flags: &[usize]| {
        let mut opt = VisOption::default();
        for &f in flags {
            opt.flags[f] = 1;
        }
        let (mut cam, mut scn) = (Camera::default_free(&m), Scene::new(100));
        let pert = Perturb::default();
        vis::update_scene(&m, &mut d, &opt, &pert, &mut cam, vis::CAT_ALL, &mut scn).unwrap();
        scn.geoms.clone()
    };
    let plain = scene(&[]);
    let flagged = scene(&[
        vis::flag::SDFITER,
        vis::flag::FLEXVERT,
        vis::flag::FLEXEDGE,
        vis::flag::FLEXFACE,
        vis::flag::FLEXSKIN,
        vis::flag::FLEXBVH,
    ]);
    assert!(!plain.is_empty());
    assert_eq!(plain, flagged);
}

#[test]
fn full_scene_drops_geoms_with_the_warning() {
    let mut owned = compile("humanoid.xml");
    let m = owned.view();
    let mut data = mjrs::simulate::new_data(&m, None).unwrap();
    let mut d = data.view();
    mjrs_core::forward(&m, &mut d).unwrap();
    let (mut cam, mut scn) = (Camera::default_free(&m), Scene::new(4));
    let opt = VisOption::default();
    vis::update_scene(
        &m,
        &mut d,
        &opt,
        &Perturb::default(),
        &mut cam,
        vis::CAT_ALL,
        &mut scn,
    )
    .unwrap();
    assert_eq!(scn.geoms.len(), 4);
    let w = &d.warning[mjrs_core::types::WARN_VGEOMFULL as usize];
    assert_eq!((w.number, w.lastinfo), (1, 4));
    // static geoms only: the floor
    let mut scn = Scene::new(100);
    vis::update_scene(
        &m,
        &mut d,
        &opt,
        &Perturb::default(),
        &mut cam,
        vis::CAT_STATIC,
        &mut scn,
    )
    .unwrap();
    assert!(scn.geoms.iter().all(|g| g.category == vis::CAT_STATIC) && !scn.geoms.is_empty());
}

#[test]
fn cameras_place_the_eyes() {
    let mut owned = compile("humanoid.xml");
    let m = owned.view();
    let mut data = mjrs::simulate::new_data(&m, None).unwrap();
    let mut d = data.view();
    mjrs_core::forward(&m, &mut d).unwrap();
    let mut scn = Scene::new(100);
    // a model camera: the eyes straddle its position, looking down its -z axis
    let mut cam = Camera {
        type_: camera_type::FIXED,
        fixedcamid: 0,
        ..Camera::default()
    };
    vis::update_camera(&m, &d, &mut cam, &mut scn).unwrap();
    let (head, forward, _) = scn.camera_in_model();
    for k in 0..3 {
        assert!((head[k] - d.cam_xpos[k]).abs() < 1e-6, "{head:?}");
        assert!(
            (forward[k] + d.cam_xmat[3 * k + 2]).abs() < 1e-6,
            "{forward:?}"
        );
    }
    // tracking moves lookat a fifth of the way to the body's subtree com
    let mut cam = Camera {
        type_: camera_type::TRACKING,
        trackbodyid: 1,
        ..Camera::default_free(&m)
    };
    let before = cam.lookat;
    vis::update_camera(&m, &d, &mut cam, &mut scn).unwrap();
    for k in 0..3 {
        let expected = before[k] + (d.subtree_com[3 + k] - before[k]) * 0.2;
        assert_eq!(cam.lookat[k], expected);
    }
    // bad ids are errors, not panics
    let mut cam = Camera {
        type_: camera_type::FIXED,
        fixedcamid: 99,
        ..Camera::default()
    };
    assert!(vis::update_camera(&m, &d, &mut cam, &mut scn).is_err());
    let mut cam = Camera {
        type_: camera_type::TRACKING,
        trackbodyid: -1,
        ..Camera::default()
    };
    assert!(vis::update_camera(&m, &d, &mut cam, &mut scn).is_err());
}

#[test]
fn connectors_take_only_connector_types() {
    let mut g = vis::init_geom(mjrs_core::types::GEOM_NONE, None, None, None, None);
    let (a, b) = ([0.0, 0.0, 0.0], [0.0, 0.0, 2.0]);
    vis::connector(&mut g, mjrs_core::types::GEOM_CAPSULE, 0.1, &a, &b).unwrap();
    assert_eq!((g.size, g.pos), ([0.1, 0.1, 1.0], [0.0, 0.0, 1.0]));
    let e = vis::connector(&mut g, mjrs_core::types::GEOM_BOX, 0.1, &a, &b);
    assert_eq!(
        e,
        Err(vis::SceneError::BadConnector(mjrs_core::types::GEOM_BOX))
    );
}

#[test]
fn catenary_cases() {
    let g = [0.0, 0.0, -9.81];
    let mut out = [[0.0; 3]; vis::NCATENARY];
    // taut: the straight segment
    assert_eq!(
        vis::catenary(&[0.0; 3], &[1.0, 0.0, 0.0], &g, 0.5, &mut out),
        2
    );
    // nearly vertical: a bead below both ends
    assert_eq!(
        vis::catenary(&[0.0; 3], &[0.001, 0.0, -0.5], &g, 1.0, &mut out),
        3
    );
    assert!(out[1][2] < -0.5);
    // slack: the whole curve, its lowest point below both ends, ends in place
    assert_eq!(
        vis::catenary(&[0.0; 3], &[0.5, 0.0, 0.1], &g, 1.0, &mut out),
        vis::NCATENARY
    );
    assert!(out.iter().any(|p| p[2] < -0.1));
    assert_eq!(out[vis::NCATENARY - 1], [0.5, 0.0, 0.1]);
}

/// The `options-*.json` fixtures (generate-scene-options.py): scenes with flags switched on,
/// frames shown, applied forces and perturbations.
#[test]
fn scenes_with_options_equal_the_reference() {
    let cases = [
        ("contacts_humanoid", "collision_humanoid.xml", 100),
        ("contacts_split_ant", "ant.xml", 300),
        ("contacts_objects", "multiple_objects.xml", 150),
        ("contacts_elliptic", "rows_contacts_elliptic.xml", 50),
        ("decor_humanoid", "humanoid.xml", 30),
        ("decor_ant", "ant.xml", 30),
        ("frames_geom", "hopper.xml", 20),
        ("frames_site", "rollout_arm.xml", 20),
        ("frames_contact", "multiple_objects.xml", 150),
        ("joints_kitchen", "kitchen_sink.xml", 20),
        ("objects", "scene_objects.xml", 10),
        ("objects_camframes", "scene_objects.xml", 10),
        ("objects_lightframes", "scene_objects.xml", 10),
        ("hull_objects", "multiple_objects.xml", 10),
        ("perturb_translate", "scene_objects.xml", 10),
        ("perturb_rotate", "humanoid.xml", 10),
        ("islands_contacts", "island_newton_elliptic.xml", 30),
        ("actuators_ant", "ant.xml", 20),
        ("actuators_arm26", "arm26.xml", 20),
        ("actuators_kitchen", "kitchen_sink.xml", 20),
        ("actuators_muscle", "implicit_muscle.xml", 20),
        ("actuators_user", "user_actuators.xml", 20),
        ("labels_geom", "humanoid.xml", 10),
        ("labels_body", "humanoid.xml", 10),
        ("labels_body_inertia", "humanoid.xml", 10),
        ("labels_actuator", "kitchen_sink.xml", 10),
        ("labels_joint", "kitchen_sink.xml", 10),
        ("labels_site", "rollout_arm.xml", 10),
        ("labels_tendon", "scene_tendons.xml", 10),
        ("labels_camera", "scene_objects.xml", 10),
        ("labels_light", "scene_objects.xml", 10),
        ("labels_constraint", "scene_objects.xml", 10),
        ("labels_contactpoint", "multiple_objects.xml", 150),
        ("labels_contactforce", "multiple_objects.xml", 150),
        ("labels_island", "island_pgs.xml", 30),
        ("labels_selpnt", "scene_objects.xml", 10),
        ("labels_selection", "humanoid.xml", 10),
        ("bvh_body", "humanoid.xml", 10),
        ("bvh_body_deep", "collision_humanoid.xml", 100),
        ("bvh_mesh", "convex_stacked_boxes.xml", 40),
        ("bvh_mesh_deep", "multiple_objects.xml", 150),
        ("skins", "compile/mjrs/assets.xml", 30),
        ("skins_labels", "compile/mjrs/assets.xml", 5),
    ];
    for (name, xml, steps) in cases {
        let reference = read_json(
            &fixtures()
                .join("scene")
                .join(format!("options-{name}.json")),
        );
        let mut opt = VisOption::default();
        for f in reference["flags"].as_array().unwrap() {
            opt.flags[f.as_u64().unwrap() as usize] = 1;
        }
        opt.frame = reference["frame"].as_i64().unwrap() as i32;
        opt.label = reference["label"].as_i64().unwrap() as i32;
        if let Some(depth) = reference["extra"]["bvh_depth"].as_i64() {
            opt.bvh_depth = depth as i32;
        }
        let mut owned = compile(xml);
        let m = owned.view();
        let mut data = mjrs::simulate::new_data(&m, None).unwrap();
        let mut d = data.view();
        mjrs::stepping::run_control(&m, &mut d, steps).unwrap();
        let extra = &reference["extra"];
        if let Some(x) = extra["xfrc"].as_array() {
            let body = x[0].as_u64().unwrap() as usize;
            for (k, f) in x[1].as_array().unwrap().iter().enumerate() {
                d.xfrc_applied[6 * body + k] = f.as_f64().unwrap();
            }
        }
        let pert = perturb_of(&extra["pert"]);
        mjrs_core::forward(&m, &mut d).unwrap();
        let (mut cam, mut scn) = (Camera::default_free(&m), Scene::new(10000));
        vis::update_scene(&m, &mut d, &opt, &pert, &mut cam, vis::CAT_ALL, &mut scn)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_state_gives_the_same_scene(&m, &mut d, &opt, &pert, name);
        let ours: serde_json::Value =
            serde_json::from_str(&mjrs::scene::scene_to_json(&scn)).unwrap();
        assert!(reference["ngeom"].as_u64().unwrap() > 0);
        for (field, value) in reference.as_object().unwrap() {
            if field == "skinvert" || field == "skinnormal" {
                let ours = if field == "skinvert" {
                    &scn.skinvert
                } else {
                    &scn.skinnormal
                };
                let ours: Vec<f64> = ours.iter().map(|&x| f64::from(x)).collect();
                let theirs: Vec<f64> = value
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_f64().unwrap())
                    .collect();
                assert_eq!(ours, theirs, "{name}: {field}");
            } else if field == "geom.label" {
                let ours: Vec<&str> = scn.geoms.iter().map(|g| g.label.as_str()).collect();
                let theirs: Vec<&str> = value
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|l| l.as_str().unwrap())
                    .collect();
                assert_eq!(ours, theirs, "{name}: labels");
            } else if !["flags", "frame", "extra", "label"].contains(&field.as_str()) {
                assert_same(&ours[field], value, &format!("{name}: {field}"));
            }
        }
    }
}

/// The perturbation a fixture describes (none when absent).
fn perturb_of(p: &serde_json::Value) -> Perturb {
    let mut pert = Perturb::default();
    let Some(p) = p.as_object() else {
        return pert;
    };
    let int = |k: &str| p[k].as_i64().unwrap() as i32;
    let vals = |k: &str| -> Vec<f64> {
        p[k].as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    };
    (pert.select, pert.active, pert.active2) = (int("select"), int("active"), int("active2"));
    pert.localpos.copy_from_slice(&vals("localpos"));
    pert.refpos.copy_from_slice(&vals("refpos"));
    pert.refquat.copy_from_slice(&vals("refquat"));
    pert.refselpos.copy_from_slice(&vals("refselpos"));
    pert
}

/// Equal JSON, or a panic naming the first differing entry of a list.
fn assert_same(ours: &serde_json::Value, reference: &serde_json::Value, what: &str) {
    if ours == reference {
        return;
    }
    if let (Some(a), Some(b)) = (ours.as_array(), reference.as_array()) {
        for (i, (x, y)) in a.iter().zip(b).enumerate() {
            assert_eq!(x, y, "{what}[{i}]");
        }
        assert_eq!(a.len(), b.len(), "{what}: entries");
    }
    assert_eq!(ours, reference, "{what}");
}

#[test]
fn nan_state_draws_without_panicking() {
    let mut owned = compile("humanoid.xml");
    let m = owned.view();
    let mut data = mjrs::simulate::new_data(&m, None).unwrap();
    let mut d = data.view();
    d.qpos.fill(f64::NAN);
    d.ctrl.fill(f64::NAN);
    let _ = mjrs_core::forward(&m, &mut d);
    let mut opt = VisOption::default();
    for f in [
        vis::flag::JOINT,
        vis::flag::ACTUATOR,
        vis::flag::INERTIA,
        vis::flag::COM,
        vis::flag::CONTACTPOINT,
        vis::flag::CONTACTFORCE,
        vis::flag::CAMERA,
        vis::flag::LIGHT,
        vis::flag::AUTOCONNECT,
        vis::flag::BODYBVH,
    ] {
        opt.flags[f] = 1;
    }
    opt.frame = vis::frame::BODY;
    opt.label = vis::label::BODY;
    let pert = Perturb {
        select: 1,
        active: 3,
        ..Perturb::default()
    };
    let mut cam = Camera {
        azimuth: f64::NAN,
        ..Camera::default_free(&m)
    };
    let mut scn = Scene::new(10000);
    vis::update_scene(&m, &mut d, &opt, &pert, &mut cam, vis::CAT_ALL, &mut scn).unwrap();
    assert!(!scn.geoms.is_empty());
    let _ = vis::interact::select(&m, &mut d, &opt, 1.0, 0.5, 0.5, &scn);
}

#[test]
fn command_line_options_name_mujocos_flags() {
    // `mjrs scene --flags ... --frame ... --label ...` builds the options the tests use
    let opt = mjrs::scene::options(
        &["contactforce".into(), "-static".into(), "+JOINT".into()],
        "contact",
        "geom",
    )
    .unwrap();
    let mut expected = VisOption::default();
    expected.flags[vis::flag::CONTACTFORCE] = 1;
    expected.flags[vis::flag::STATIC] = 0;
    expected.flags[vis::flag::JOINT] = 1;
    expected.frame = vis::frame::CONTACT;
    expected.label = vis::label::GEOM;
    assert_eq!(opt, expected);
    for (flags, frame, label, what) in [
        (
            vec!["nosuchflag".to_string()],
            "none",
            "none",
            "unknown flag",
        ),
        (vec![], "bodies", "none", "unknown frame"),
        (vec![], "none", "everything", "unknown label"),
    ] {
        let err = mjrs::scene::options(&flags, frame, label).unwrap_err();
        assert!(err.contains(what), "{err}");
    }
    // labels appear in the JSON only when asked for
    let mut owned = compile("hopper.xml");
    let m = owned.view();
    let mut data = mjrs::simulate::new_data(&m, None).unwrap();
    let mut d = data.view();
    mjrs_core::forward(&m, &mut d).unwrap();
    let plain = mjrs::scene::scene_json(&m, &mut d).unwrap();
    assert!(!plain.contains("geom.label"));
    let opt = mjrs::scene::options(&[], "none", "geom").unwrap();
    let labelled: serde_json::Value =
        serde_json::from_str(&mjrs::scene::scene_json_with(&m, &mut d, &opt).unwrap()).unwrap();
    assert_eq!(labelled["geom.label"][1], "torso_geom");
}

/// The scene built from a scene state (`mjv_updateSceneState`, then `mjv_updateSceneFromState`)
/// is the scene built from the model and the data, field for field.
fn assert_state_gives_the_same_scene(
    m: &Model,
    d: &mut Data,
    opt: &VisOption,
    pert: &Perturb,
    name: &str,
) {
    let (mut cam, mut direct) = (Camera::default_free(m), Scene::new(10000));
    vis::update_scene(m, d, opt, pert, &mut cam, vis::CAT_ALL, &mut direct).unwrap();
    let mut state = SceneState::new(m, 10000).unwrap();
    state.update(m, d).unwrap();
    let (mut cam, mut scn) = (Camera::default_free(m), Scene::new(10000));
    let raised =
        vis::update_scene_from_state(&mut state, opt, pert, &mut cam, vis::CAT_ALL, &mut scn)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(raised, 0, "{name}");
    assert!(scn == direct, "{name}: the scene from the state differs");
}

/// A state keeps at most `maxgeom` contacts and counts the warning in the physics data; the
/// scene from the state warns into its return value, not into the state.
#[test]
fn scene_state_keeps_maxgeom_contacts_with_the_warning() {
    let mut owned = compile("multiple_objects.xml");
    let m = owned.view();
    let mut data = mjrs::simulate::new_data(&m, None).unwrap();
    let mut d = data.view();
    mjrs::stepping::run_control(&m, &mut d, 150).unwrap();
    mjrs_core::forward(&m, &mut d).unwrap();
    assert!(d.ncon > 3, "{} contacts", d.ncon);
    let full = mjrs_core::types::WARN_VGEOMFULL as usize;
    let before = d.warning[full].number;
    let mut state = SceneState::new(&m, 3).unwrap();
    state.update(&m, &mut d).unwrap();
    assert_eq!(d.warning[full].number, before + 1);
    assert_eq!(state.data().ncon, 3);
    let mut opt = VisOption::default();
    opt.flags[vis::flag::CONTACTPOINT] = 1;
    let (mut cam, mut scn) = (Camera::default_free(&m), Scene::new(5));
    let kept = state.data().warning;
    let raised = vis::update_scene_from_state(
        &mut state,
        &opt,
        &Perturb::default(),
        &mut cam,
        vis::CAT_ALL,
        &mut scn,
    )
    .unwrap();
    assert!(raised >= 1, "a 5-geom scene of this model is full");
    assert_eq!(scn.geoms.len(), 5);
    assert_eq!(state.data().warning, kept);
}

/// A state belongs to a model of one set of sizes.
#[test]
fn scene_state_refuses_another_model() {
    let mut hopper = compile("hopper.xml");
    let mut ant = compile("ant.xml");
    let (h, a) = (hopper.view(), ant.view());
    let mut data = mjrs::simulate::new_data(&a, None).unwrap();
    let mut d = data.view();
    let mut state = SceneState::new(&h, 100).unwrap();
    assert_eq!(state.update(&a, &mut d), Err(SceneError::ModelMismatch));
}

/// Physics steps on one thread while scenes are built from the state on another, as MuJoCo's
/// `simulate` does; the last scene is the scene of the last copied state.
#[test]
fn physics_and_scenes_on_two_threads() {
    let mut owned = compile("humanoid.xml");
    let m = owned.view();
    let state = std::sync::Mutex::new(SceneState::new(&m, 1000).unwrap());
    let done = std::sync::atomic::AtomicBool::new(false);
    let mut data = mjrs::simulate::new_data(&m, None).unwrap();
    let mut scenes = 0;
    std::thread::scope(|s| {
        s.spawn(|| {
            let mut d = data.view();
            for _ in 0..20 {
                mjrs::stepping::run_control(&m, &mut d, 10).unwrap();
                state.lock().unwrap().update(&m, &mut d).unwrap();
            }
            done.store(true, std::sync::atomic::Ordering::Release);
        });
        let (opt, pert) = (VisOption::default(), Perturb::default());
        let mut cam = Camera::default_free(&m);
        let mut scn = Scene::new(1000);
        while !done.load(std::sync::atomic::Ordering::Acquire) || scenes == 0 {
            let mut st = state.lock().unwrap();
            vis::update_scene_from_state(&mut st, &opt, &pert, &mut cam, vis::CAT_ALL, &mut scn)
                .unwrap();
            scenes += 1;
        }
    });
    assert!(scenes > 0);
    let mut d = data.view();
    let (opt, pert) = (VisOption::default(), Perturb::default());
    let mut st = state.into_inner().unwrap();
    let (mut cam, mut from_state) = (Camera::default_free(&m), Scene::new(1000));
    vis::update_scene_from_state(
        &mut st,
        &opt,
        &pert,
        &mut cam,
        vis::CAT_ALL,
        &mut from_state,
    )
    .unwrap();
    let (mut cam, mut direct) = (Camera::default_free(&m), Scene::new(1000));
    vis::update_scene(&m, &mut d, &opt, &pert, &mut cam, vis::CAT_ALL, &mut direct).unwrap();
    assert!(from_state == direct);
}
