//! `mujoco.sensor.touch_grid` against MuJoCo 3.1.6's sensor plugin library
//! (`fixtures/generate-plugin.py`): MuJoCo's `model/plugin/sensor/touch_grid.xml` (an ellipsoid on
//! a height field) and a focused model (six channels, a fovea, elliptic cones with torques,
//! force signs from bodies before and after the sensing one, default configuration on a welded
//! child's site), 1000 steps of mjref's control law, sensor data and state compared bit for bit,
//! from MuJoCo's MJB and from mjrs's compilation. Bad configurations fail with MuJoCo's reason.

use mjrs_core::plugin::{self, PluginGeom, PluginScene};
use mjrs_core::Data;
use mjrs_tests::plugin_traj::{check_manifest, check_refusals, load, reference_mjb, Message};

#[test]
fn touch_grid_trajectories_match_mujoco_bit_for_bit() {
    check_manifest("touch_grid", false);
}

#[test]
fn touch_grid_models_compiled_by_mjrs_run_as_mujoco() {
    check_manifest("touch_grid", true);
}

/// MuJoCo reports the touch grid's refusals with `mju_error`: its message is the reason itself
/// (the plugin's `PluginError::fatal`), not a failed `init`.
#[test]
fn bad_touch_grid_configurations_fail_with_mujocos_reason() {
    assert_eq!(check_refusals("touch_grid_", Message::Whole), 12);
}

/// Collects the geoms a plugin draws.
#[derive(Default)]
struct Geoms(Vec<PluginGeom>);

impl PluginScene for Geoms {
    fn add_geom(&mut self, _d: &mut Data, g: &PluginGeom) -> bool {
        self.0.push(*g);
        true
    }
    fn set_geom_rgba(&mut self, _geom: usize, _rgba: [f32; 4]) {}
}

/// The cells with contacts are drawn as boxes in front of the site, coloured by the channels
/// relative to the largest normal force; nothing is drawn without contacts.
#[test]
fn visualize_draws_the_touched_cells() {
    let mut buf = Vec::new();
    let m = load(&reference_mjb("touch_grid"), &mut buf);
    let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = Data::new(&m, &mut dbuf).unwrap();
    let p = plugin::instance_plugin(&m, 0).unwrap();
    let mut before = Geoms::default();
    mjrs_core::forward(&m, &mut d).unwrap();
    p.visualize(&m, &mut d, 0, &mut before);
    assert!(
        before.0.is_empty(),
        "{} geoms before any contact",
        before.0.len()
    );
    for _ in 0..1000 {
        mjrs_core::step(&m, &mut d).unwrap();
        if d.sensordata.iter().any(|&x| x != 0.0) {
            break;
        }
    }
    assert!(d.ncon > 0, "the ellipsoid never landed");
    let mut after = Geoms::default();
    p.visualize(&m, &mut d, 0, &mut after);
    assert!(!after.0.is_empty());
    let site = m.sensor_objid[0] as usize;
    for g in &after.0 {
        assert_eq!(g.type_, mjrs_core::types::GEOM_BOX);
        assert!(g.size.iter().all(|s| *s > 0.0), "{:?}", g.size);
        assert!(g.rgba.iter().all(|c| (0.0..=1.0).contains(c)));
        // the boxes lie below the site, which looks down its -z axis
        assert!(g.pos[2] < d.site_xpos[3 * site + 2]);
    }
    assert!(
        after.0.iter().any(|g| g.rgba[0] == 1.0),
        "the strongest cell is full red"
    );
}

/// The boxes drawn after the steps of `fixtures/plugin/touch_grid.scene.json` are MuJoCo's:
/// size, position, orientation and colour as the f32 bits `mjvGeom` holds, in MuJoCo's order.
#[test]
fn visualize_matches_mujocos_scene() {
    let path = mjrs_tests::fixtures().join("plugin/touch_grid.scene.json");
    let reference: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut buf = Vec::new();
    let m = load(&reference_mjb("touch_grid"), &mut buf);
    let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = Data::new(&m, &mut dbuf).unwrap();
    let p = plugin::instance_plugin(&m, 0).unwrap();
    let mut step = 0;
    let mut boxes = 0;
    for snapshot in reference.as_array().unwrap() {
        while step < snapshot["step"].as_u64().unwrap() {
            mjrs_tests::plugin_traj::control(&m, &mut d);
            mjrs_core::step(&m, &mut d).unwrap();
            step += 1;
        }
        let mut ours = Geoms::default();
        p.visualize(&m, &mut d, 0, &mut ours);
        let theirs = snapshot["boxes"].as_array().unwrap();
        assert_eq!(ours.0.len(), theirs.len(), "step {step}");
        for (k, (o, t)) in ours.0.iter().zip(theirs).enumerate() {
            let f32s = |key: &str| -> Vec<u32> {
                t[key]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|h| u32::from_str_radix(h.as_str().unwrap(), 16).unwrap())
                    .collect()
            };
            let bits =
                |v: &[f64]| -> Vec<u32> { v.iter().map(|&x| (x as f32).to_bits()).collect() };
            assert_eq!(i64::from(o.objid), t["objid"].as_i64().unwrap());
            assert_eq!(bits(&o.size), f32s("size"), "step {step} box {k} size");
            assert_eq!(bits(&o.pos), f32s("pos"), "step {step} box {k} pos");
            assert_eq!(bits(&o.mat), f32s("mat"), "step {step} box {k} mat");
            let rgba: Vec<u32> = o.rgba.iter().map(|c| c.to_bits()).collect();
            assert_eq!(rgba, f32s("rgba"), "step {step} box {k} rgba");
            boxes += 1;
        }
    }
    assert_eq!(boxes, 28);
}
