//! The user hooks (`mjcb_control`, `mjcb_act_dyn`, `mjcb_act_gain`, `mjcb_act_bias`,
//! `mjcb_time`, `mjcb_contactfilter`) are called where MuJoCo calls them. A user actuator whose
//! callbacks implement a filter with gain 2 and bias 0.5 must move exactly like its built-in
//! twin; a contact filter sees and drops the pairs MuJoCo's sees and drops
//! (`generate-contactfilter.py`).

use mjrs_core::types::{TIMER_FORWARD, TIMER_STEP};
use mjrs_core::{mjb, Callbacks, Data, Model, Real};
use mjrs_tests::fixtures;

fn with_model(f: impl FnOnce(&Model, &mut Data)) {
    let blob = std::fs::read(fixtures().join("misc/user_actuators.mjb")).unwrap();
    let mut mbuf = vec![0u8; mjb::read_header(&blob).unwrap().model_bytes().unwrap()];
    let m = mjb::load(&blob, &mut mbuf).unwrap();
    let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = Data::new(&m, &mut dbuf).unwrap();
    f(&m, &mut d);
}

/// Same control for both actuators, changing over time.
fn control(_: &Model, d: &mut Data) {
    let c = (3.0 * d.time).sin();
    d.ctrl[0] = c;
    d.ctrl[1] = c;
}

/// The twin's filter dynamics, `(ctrl - act) / tau`, with tau = 0.1.
fn act_dyn(_: &Model, d: &mut Data, id: usize) -> Real {
    (d.ctrl[id] - d.act[id]) / 0.1
}

fn act_gain(_: &Model, _: &Data, _: usize) -> Real {
    2.0
}

fn act_bias(_: &Model, _: &Data, _: usize) -> Real {
    0.5
}

#[test]
fn user_actuator_moves_like_its_builtin_twin() {
    with_model(|m, d| {
        d.callbacks = Callbacks {
            control: Some(control),
            act_dyn: Some(act_dyn),
            act_gain: Some(act_gain),
            act_bias: Some(act_bias),
            ..Callbacks::default()
        };
        for _ in 0..500 {
            mjrs_core::step(m, d).unwrap();
        }
        assert!(d.qpos[0].abs() > 1e-3, "the actuator moved the joint");
        assert_eq!(d.act[0], d.act[1]);
        assert_eq!(d.actuator_force[0], d.actuator_force[1]);
        // the bodies sit at different places, so their inertias round differently
        let close = |a: Real, b: Real| (a - b).abs() <= 1e-12 * a.abs().max(1.0);
        assert!(
            close(d.qpos[0], d.qpos[1]),
            "{} vs {}",
            d.qpos[0],
            d.qpos[1]
        );
        assert!(
            close(d.qvel[0], d.qvel[1]),
            "{} vs {}",
            d.qvel[0],
            d.qvel[1]
        );
    });
}

#[test]
fn without_callbacks_user_types_use_mujocos_defaults() {
    with_model(|m, d| {
        // no act_dyn: act_dot stays 0; no gain callback: gain 1; no bias callback: bias 0
        d.act[0] = 0.25;
        mjrs_core::forward(m, d).unwrap();
        assert_eq!(d.act_dot[0], 0.0);
        assert_eq!(d.actuator_force[0], 0.25);
    });
}

#[test]
fn time_callback_drives_the_timers() {
    fn clock() -> Real {
        // a clock that advances one unit per reading
        use std::sync::atomic::{AtomicU32, Ordering};
        static TICKS: AtomicU32 = AtomicU32::new(0);
        Real::from(TICKS.fetch_add(1, Ordering::Relaxed))
    }
    with_model(|m, d| {
        mjrs_core::step(m, d).unwrap();
        assert_eq!(
            d.timer[TIMER_STEP as usize].number, 0,
            "no clock, no timing"
        );
        d.callbacks.time = Some(clock);
        for _ in 0..3 {
            mjrs_core::step(m, d).unwrap();
        }
        assert_eq!(d.timer[TIMER_STEP as usize].number, 3);
        assert_eq!(d.timer[TIMER_FORWARD as usize].number, 3);
        assert!(d.timer[TIMER_STEP as usize].duration > 0.0);
    });
}

#[test]
fn control_callback_runs_before_actuation_and_respects_the_actuation_flag() {
    with_model(|m, d| {
        d.callbacks.control = Some(control);
        d.time = 0.5;
        mjrs_core::forward(m, d).unwrap();
        assert_eq!(d.ctrl[1], (1.5 as Real).sin());
        // the twin's force uses the control just set: gain 2 * act + bias 0.5, act = 0
        assert_eq!(d.actuator_force[1], 0.5);
    });
}

#[test]
fn control_callback_is_skipped_when_actuation_is_disabled() {
    let blob = std::fs::read(fixtures().join("misc/user_actuators.mjb")).unwrap();
    let mut mbuf = vec![0u8; mjb::read_header(&blob).unwrap().model_bytes().unwrap()];
    let mut m = mjb::load(&blob, &mut mbuf).unwrap();
    m.opt.disableflags |= mjrs_core::types::DSBL_ACTUATION;
    let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = Data::new(&m, &mut dbuf).unwrap();
    d.callbacks.control = Some(control);
    d.time = 0.5;
    mjrs_core::forward(&m, &mut d).unwrap();
    assert_eq!(d.ctrl[1], 0.0);
}

/// Geom pairs the contact filter saw in the current step.
static SEEN: std::sync::Mutex<Vec<(usize, usize)>> = std::sync::Mutex::new(Vec::new());

/// The filter of `generate-contactfilter.py`: leaves out pairs with (g1 + 2 g2) % 3 == 0.
fn reject(_: &Model, _: &mut Data, g1: usize, g2: usize) -> bool {
    SEEN.lock().unwrap().push((g1, g2));
    (g1 + 2 * g2).is_multiple_of(3)
}

#[test]
fn contact_filter_sees_and_drops_the_pairs_mujocos_does() {
    let reference = mjrs_tests::read_json(&fixtures().join("misc/contactfilter.json"));
    let blob = std::fs::read(fixtures().join(reference["model"].as_str().unwrap())).unwrap();
    let mut mbuf = vec![0u8; mjb::read_header(&blob).unwrap().model_bytes().unwrap()];
    let m = mjb::load(&blob, &mut mbuf).unwrap();
    let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = Data::new(&m, &mut dbuf).unwrap();
    d.callbacks.contactfilter = Some(reject);
    for _ in 0..reference["steps"].as_u64().unwrap() {
        SEEN.lock().unwrap().clear();
        mjrs_core::step(&m, &mut d).unwrap();
    }
    let pairs = |v: &serde_json::Value| -> Vec<(usize, usize)> {
        let rows = v.as_array().unwrap().iter();
        rows.map(|p| {
            (
                p[0].as_u64().unwrap() as usize,
                p[1].as_u64().unwrap() as usize,
            )
        })
        .collect()
    };
    assert_eq!(*SEEN.lock().unwrap(), pairs(&reference["seen"]));
    let contacts: Vec<(usize, usize)> = d.arena.arrays().contact[..d.ncon]
        .iter()
        .map(|c| (c.geom[0] as usize, c.geom[1] as usize))
        .collect();
    assert_eq!(contacts, pairs(&reference["contact_geom"]));
    let reals = |v: &serde_json::Value| -> Vec<f64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    };
    assert_eq!(d.qpos.to_vec(), reals(&reference["qpos"]));
    assert_eq!(d.qvel.to_vec(), reals(&reference["qvel"]));
}
