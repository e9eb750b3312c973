//! A plugin registered from outside the crate (`examples/plugin_spring_damper.rs`): it takes a
//! free slot after the first-party ones, a model names it in MJCF, its force is a
//! spring-damper's, and the trajectory is bit for bit that of the same model with the joints'
//! own stiffness and damping (RK4, and Euler without implicit damping).

#[path = "../../examples/plugin_spring_damper.rs"]
mod example;

use example::{model_xml, trajectory, NAME, SPRING_DAMPER};
use mjrs_core::plugin::{get_plugin, register_plugin, FIRST_PARTY};

fn register() -> usize {
    register_plugin(&SPRING_DAMPER).unwrap()
}

#[test]
fn registers_after_the_first_party_slots() {
    let slot = register();
    assert!(slot >= FIRST_PARTY.len());
    assert_eq!(get_plugin(NAME).map(|(s, _)| s), Some(slot));
    // the same object again is fine
    assert_eq!(register(), slot);
}

#[test]
fn force_is_the_spring_damper_force() {
    register();
    let xml = model_xml("Euler", r#"eulerdamp="disable""#, false);
    let mut model = mjrs_xml::compile_str(&xml, "spring_damper.xml", "", None)
        .unwrap()
        .model;
    let m = model.view();
    assert_eq!(m.nplugin, 1);
    let mut data = mjrs_std::OwnedData::new(&m).unwrap();
    let mut d = data.view();
    let (q, v) = ([0.9, 0.12], [-1.5, 0.7]);
    d.qpos.copy_from_slice(&q);
    d.qvel.copy_from_slice(&v);
    mjrs_core::forward(&m, &mut d).unwrap();
    // springref 0.4 and -0.05, stiffness 40, damping 0.3 (see model_xml)
    let expected = [
        -40.0 * (0.9 - 0.4) + -0.3 * -1.5,
        -40.0 * (0.12 - -0.05) + -0.3 * 0.7,
    ];
    assert_eq!(d.qfrc_passive.to_vec(), expected);
    assert!((expected[0] - -19.55).abs() < 1e-12 && (expected[1] - -7.01).abs() < 1e-12);
    // the joints have no stiffness or damping of their own
    assert!(d
        .qfrc_spring
        .iter()
        .chain(d.qfrc_damper.iter())
        .all(|&f| f == 0.0));
}

#[test]
fn trajectory_equals_the_builtin_spring_damper() {
    register();
    for (integrator, flags) in [("RK4", ""), ("Euler", r#"eulerdamp="disable""#)] {
        let plugin = trajectory(&model_xml(integrator, flags, false), 1000).unwrap();
        let builtin = trajectory(&model_xml(integrator, flags, true), 1000).unwrap();
        assert_eq!(plugin, builtin, "{integrator}");
        // the model moves: the arm swings from qpos0 toward its springref
        assert!((plugin[999][0] - plugin[0][0]).abs() > 0.01, "{integrator}");
    }
}

#[test]
fn euler_damps_builtin_damping_implicitly_not_the_plugins() {
    register();
    let plugin = trajectory(&model_xml("Euler", "", false), 100).unwrap();
    let builtin = trajectory(&model_xml("Euler", "", true), 100).unwrap();
    assert_ne!(plugin, builtin);
}

#[test]
fn bad_configuration_and_joints_are_refused_when_compiled() {
    register();
    let good = model_xml("RK4", "", false);
    let bad_gain = good.replace(r#"value="0.3""#, r#"value="soft""#);
    let refusal = |xml: &str| match mjrs_xml::compile_str(xml, "spring_damper.xml", "", None) {
        Ok(_) => panic!("compiled"),
        Err(e) => e.to_string(),
    };
    let e = refusal(&bad_gain);
    assert!(e.contains("must be numbers"), "{e}");
    let ball = good.replace(r#"type="slide" axis="1 0 0""#, r#"type="ball""#);
    let e = refusal(&ball);
    assert!(e.contains("hinge and slide joints only"), "{e}");
}
