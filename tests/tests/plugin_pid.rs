//! `mujoco.pid` against MuJoCo 3.1.6's plugin library (`fixtures/generate-plugin.py`): MuJoCo's
//! own `model/plugin/actuator/pid.xml` and focused models (integral with and without `imax`,
//! `slewmax` including 0 and NaN, activation dynamics with `actearly` under RK4, strtod-style
//! configuration), 1000 steps of mjref's control law, every 10th state compared bit for bit;
//! from MuJoCo's MJB and from mjrs's own compilation. Bad configurations fail as in MuJoCo.

use mjrs_tests::plugin_traj::{check_manifest, check_refusals, Message};

#[test]
fn pid_trajectories_match_mujoco_bit_for_bit() {
    check_manifest("pid", false);
}

#[test]
fn pid_models_compiled_by_mjrs_run_as_mujoco() {
    check_manifest("pid", true);
}

/// Negative `imax` (also through a negative `ki`), negative `slewmax` and an unused instance are
/// refused with MuJoCo's message; `imax` without `ki`, a NaN `imax` load; an unknown key is
/// refused by the compiler.
#[test]
fn bad_pid_configurations_fail_as_in_mujoco() {
    assert_eq!(check_refusals("pid_", Message::FirstLine), 7);
}

/// The plugin's own reason comes after MuJoCo's message (MuJoCo prints it as a warning).
#[test]
fn refusals_say_why() {
    mjrs_core::plugin::register_first_party();
    let dir = mjrs_tests::fixtures().join("../models/plugin/bad");
    for (file, why) in [
        ("pid_negative_imax.xml", "negative imax"),
        ("pid_negative_ki.xml", "negative imax"),
        ("pid_negative_slewmax.xml", "maxslew must be non-negative"),
        (
            "pid_no_actuator.xml",
            "actuator not found for plugin instance",
        ),
    ] {
        let err = mjrs_xml::load_xml(dir.join(file), None)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains(why), "{file}: {err}");
    }
}
