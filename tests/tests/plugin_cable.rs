//! `mujoco.elasticity.cable` (`core/src/plugin/cable.rs`) against MuJoCo 3.1.6 with its plugin
//! library, for the models of `fixtures/plugin-models-cable.txt` (MuJoCo's cable, coil and belt
//! with their composites expanded, and focused cables; see `fixtures/generate-plugin.sh`):
//! * after 20 steps of the control law and a forward pass, the state, generalized forces
//!   (`qfrc_passive` holds the cable's torques), accelerations and body poses are bit for bit
//!   MuJoCo's;
//! * over 1000 steps, time, qpos, qvel, act and sensordata are bit for bit MuJoCo's;
//! * the same models compiled by mjrs from their MJCF (`<extension>`, body `<plugin>`) are
//!   MuJoCo's field by field and run MuJoCo's 1000 steps bit for bit;
//! * the instance checks of MuJoCo's plugin (and those that keep mjrs from reading outside the
//!   model's arrays) refuse bad models with a clear message.

use mjrs_core::plugin::{self, cable::CABLE, Plugin};
use mjrs_core::{mjb, Data, Model};
use mjrs_tests::harness::Suite;
use mjrs_tests::plugin_traj::check_recorded_data;

const CABLES: Suite = Suite {
    prefix: "plugin-models-cable",
    dir: "plugin",
};

/// The first-party plugins, registered as the desktop fronts do.
fn register() {
    plugin::register_first_party();
}

#[test]
fn data_after_steps_is_bit_for_bit() {
    let fields = check_recorded_data(&CABLES, "qfrc_passive");
    println!("{fields} Data fields compared bit for bit");
    assert!(fields > 100, "only {fields} fields compared");
}

#[test]
fn trajectories_are_bit_for_bit_for_1000_steps() {
    register();
    let failures = CABLES.traj_failures(0.0, 0.0);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn compiled_models_are_mujocos_and_run_its_trajectories() {
    register();
    let (n, fields, _) = CABLES.check_compiled_models();
    println!("{n} cable models compiled by mjrs: {fields} fields identical, 1000 steps each");
    assert_eq!(n, 6);
}

/// Runs `f` on the model of fixture `name`.
fn with_model(name: &str, f: impl FnOnce(&mut Model)) {
    register();
    let blob = std::fs::read(CABLES.path(name, "mjb")).unwrap();
    let header = mjb::read_header(&blob).unwrap();
    let mut mbuf = vec![0u8; header.model_bytes().unwrap()];
    let mut m = mjb::load(&blob, &mut mbuf).unwrap();
    f(&mut m);
}

/// Replaces the configuration value of `key` (an attribute of the cable plugin) in
/// `plugin_attr` by `value` of the same length.
fn set_config(m: &mut Model, key: &str, value: &str) {
    let index = CABLE.attributes().iter().position(|a| *a == key).unwrap();
    let start = m.plugin_attradr[0] as usize;
    let mut offset = start;
    for _ in 0..index {
        offset += m.plugin_attr[offset..]
            .iter()
            .position(|&b| b == 0)
            .unwrap()
            + 1;
    }
    let old = m.plugin_attr[offset..]
        .iter()
        .position(|&b| b == 0)
        .unwrap();
    assert_eq!(old, value.len(), "same length only");
    m.plugin_attr[offset..offset + old].copy_from_slice(value.as_bytes());
}

#[test]
fn twist_and_bend_must_be_numbers_once_spaces_are_removed() {
    // plugin_cable_small: twist "4e5", bend "5e5"
    with_model("plugin_cable_small", |m| {
        assert_eq!(CABLE.init(m, 0), Ok(()));
        set_config(m, "twist", "4 5");
        assert_eq!(
            CABLE.init(m, 0),
            Ok(()),
            "\"4 5\" reads as 45 once spaces go"
        );
        for bad in ["4e+", "x45", "4,5"] {
            set_config(m, "twist", bad);
            let e = CABLE.init(m, 0).unwrap_err();
            assert_eq!(e.message, "Invalid parameter specification in cable plugin");
        }
        set_config(m, "twist", "4e5");
        set_config(m, "bend", "5-5");
        assert!(CABLE.init(m, 0).is_err());
    });
}

#[test]
fn bodies_of_an_instance_must_be_consecutive() {
    with_model("plugin_cable_small", |m| {
        // bodies 1..=5 name instance 0; take the middle one out of the cable
        m.body_plugin[3] = -1;
        let e = CABLE.init(m, 0).unwrap_err();
        assert_eq!(
            e.message,
            "This body does not have the requested plugin instance"
        );
    });
}

#[test]
fn bodies_need_a_geom_and_an_orientation_joint() {
    with_model("plugin_cable_small", |m| {
        m.body_geomnum[2] = 0;
        m.body_geomadr[2] = -1;
        assert!(CABLE.init(m, 0).unwrap_err().message.contains("no geom"));
    });
    with_model("plugin_cable_small", |m| {
        // the second body's ball joint: MuJoCo would read qpos before the body's own
        m.body_jntnum[2] = 0;
        m.body_jntadr[2] = -1;
        assert!(CABLE
            .init(m, 0)
            .unwrap_err()
            .message
            .contains("ball or free joint"));
    });
}

#[test]
fn an_instance_without_bodies_adds_nothing() {
    with_model("plugin_cable_small", |m| {
        for b in m.body_plugin.iter_mut() {
            *b = -1;
        }
        assert_eq!(CABLE.init(m, 0), Ok(()));
        let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
        let mut d = Data::new(m, &mut dbuf).unwrap();
        mjrs_core::forward(m, &mut d).unwrap();
        let before = d.qfrc_passive.to_vec();
        CABLE.compute(m, &mut d, 0, plugin::PLUGIN_PASSIVE).unwrap();
        assert_eq!(d.qfrc_passive.to_vec(), before);
    });
}
