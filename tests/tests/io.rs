//! `reset_data`, `reset_data_keyframe`, `copy_data` and `copy_model` behave as MuJoCo's
//! `mj_resetData`, `mj_resetDataKeyframe`, `mj_copyData`, `mj_copyModel`.

use mjrs_core::io::{copy_data, copy_model, reset_data, reset_data_debug, reset_data_keyframe};
use mjrs_core::{mjb, Data, Model};
use mjrs_tests::{compare, fixtures};

fn blob() -> Vec<u8> {
    std::fs::read(fixtures().join("smooth/chain_joints.mjb")).unwrap()
}

fn json(m: &Model, d: &Data) -> serde_json::Value {
    serde_json::from_str(&mjrs::dump::data_json(m, d)).unwrap()
}

#[test]
fn copy_data_makes_an_identical_twin() {
    let blob = blob();
    let mut mbuf = vec![0u8; mjb::read_header(&blob).unwrap().model_bytes().unwrap()];
    let m = mjb::load(&blob, &mut mbuf).unwrap();
    let n = Data::bytes_needed(m.sizes()).unwrap();
    let (mut a, mut b) = (vec![0u8; n], vec![0u8; n]);
    let mut d1 = Data::new(&m, &mut a).unwrap();
    let mut d2 = Data::new(&m, &mut b).unwrap();
    reset_data_keyframe(&m, &mut d1, 0);
    for _ in 0..25 {
        mjrs::control::sine(&m, &mut d1);
        mjrs_core::step(&m, &mut d1).unwrap();
    }
    copy_data(&mut d2, &d1).unwrap();
    compare(&json(&m, &d1), &json(&m, &d2)).assert_match(0.0, "copy");
    // and they evolve identically
    for _ in 0..25 {
        for d in [&mut d1, &mut d2] {
            mjrs::control::sine(&m, d);
            mjrs_core::step(&m, d).unwrap();
        }
    }
    compare(&json(&m, &d1), &json(&m, &d2)).assert_match(0.0, "copy stepped");
}

#[test]
fn reset_restores_the_initial_data() {
    let blob = blob();
    let mut mbuf = vec![0u8; mjb::read_header(&blob).unwrap().model_bytes().unwrap()];
    let m = mjb::load(&blob, &mut mbuf).unwrap();
    let n = Data::bytes_needed(m.sizes()).unwrap();
    let (mut a, mut b) = (vec![0u8; n], vec![0u8; n]);
    let fresh = Data::new(&m, &mut a).unwrap();
    let mut d = Data::new(&m, &mut b).unwrap();
    for _ in 0..10 {
        mjrs_core::step(&m, &mut d).unwrap();
    }
    d.qfrc_applied[0] = 1.0;
    reset_data(&m, &mut d);
    compare(&json(&m, &fresh), &json(&m, &d)).assert_match(0.0, "reset");
    assert_eq!(&d.qpos[..], &m.qpos0[..]);
}

#[test]
fn reset_keyframe_takes_the_key_and_ignores_bad_keys() {
    let blob = blob();
    let mut mbuf = vec![0u8; mjb::read_header(&blob).unwrap().model_bytes().unwrap()];
    let m = mjb::load(&blob, &mut mbuf).unwrap();
    let mut b = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = Data::new(&m, &mut b).unwrap();
    reset_data_keyframe(&m, &mut d, 0);
    assert_eq!(d.qpos, &m.key_qpos[..m.nq]);
    assert_eq!(d.qvel, &m.key_qvel[..m.nv]);
    assert_eq!(d.time, m.key_time[0]);
    for bad in [-1, 1, i32::MAX] {
        reset_data_keyframe(&m, &mut d, bad);
        assert_eq!(&d.qpos[..], &m.qpos0[..], "key {bad} resets only");
    }
}

#[test]
fn copy_model_requires_equal_sizes() {
    let blob = blob();
    let n = mjb::read_header(&blob).unwrap().model_bytes().unwrap();
    let (mut a, mut b) = (vec![0u8; n], vec![0u8; n]);
    let src = mjb::load(&blob, &mut a).unwrap();
    let mut dst = Model::carve(*src.sizes(), &mut b).unwrap();
    copy_model(&mut dst, &src).unwrap();
    assert_eq!(dst.body_mass, src.body_mass);
    assert_eq!(dst.opt, src.opt);

    let other = std::fs::read(fixtures().join("mjb/hopper.mjb")).unwrap();
    let mut c = vec![0u8; mjb::read_header(&other).unwrap().model_bytes().unwrap()];
    let hopper = mjb::load(&other, &mut c).unwrap();
    assert!(copy_model(&mut dst, &hopper).is_err());
}

#[test]
fn debug_reset_poisons_computed_arrays_only() {
    let blob = blob();
    let mut mbuf = vec![0u8; mjb::read_header(&blob).unwrap().model_bytes().unwrap()];
    let m = mjb::load(&blob, &mut mbuf).unwrap();
    let n = Data::bytes_needed(m.sizes()).unwrap();
    let (mut a, mut b) = (vec![0u8; n], vec![0u8; n]);
    let mut clean = Data::new(&m, &mut a).unwrap();
    let mut poisoned = Data::new(&m, &mut b).unwrap();
    reset_data_debug(&m, &mut poisoned, 0xFF);
    // computed arrays hold the pattern (NaN for reals), inputs are reset as usual
    assert!(poisoned.xpos.iter().all(|x| x.is_nan()));
    assert!(poisoned.qM.iter().all(|x| x.is_nan()));
    assert_eq!(poisoned.qpos, clean.qpos);
    assert!(poisoned
        .qvel
        .iter()
        .chain(poisoned.ctrl.iter())
        .all(|&x| x == 0.0));
    assert_eq!(poisoned.D_rownnz, clean.D_rownnz);
    // the forward pass writes everything it reads: the poison does not leak into the results
    for d in [&mut clean, &mut poisoned] {
        mjrs::control::sine(&m, d);
        mjrs_core::forward(&m, d).unwrap();
    }
    for field in ["qacc", "xpos", "qfrc_bias", "efc_force", "sensordata"] {
        assert_eq!(
            json(&m, &poisoned)[field],
            json(&m, &clean)[field],
            "{field}"
        );
    }
    // value 0 is the plain reset
    reset_data_debug(&m, &mut poisoned, 0);
    reset_data(&m, &mut clean);
    assert_eq!(json(&m, &poisoned), json(&m, &clean));
}

#[test]
fn the_command_line_refuses_keyframes_the_model_lacks() {
    let blob = blob();
    let mut mbuf = vec![0u8; mjb::read_header(&blob).unwrap().model_bytes().unwrap()];
    let m = mjb::load(&blob, &mut mbuf).unwrap();
    assert!(m.nkey > 0);
    assert!(mjrs::simulate::new_data(&m, Some(0)).is_ok());
    for key in [m.nkey as i32, -1] {
        let err = mjrs::simulate::new_data(&m, Some(key)).unwrap_err();
        assert!(err.contains("does not exist"), "{err}");
    }
}
