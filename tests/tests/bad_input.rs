//! Bad input gets a clear error or MuJoCo's documented behaviour, never a panic: a too-small
//! arena, NaN or huge state and controls, a data made for another model.

use mjrs_core::types::{WARN_BADCTRL, WARN_BADQACC, WARN_BADQPOS, WARN_BADQVEL};
use mjrs_core::{mjb, ArenaError, Data, StepError};
use mjrs_tests::fixtures;

/// A fixture model's buffer and header (view it with `Model::view`).
fn load(path: &str) -> (Vec<u8>, mjrs_core::ModelHeader) {
    let blob = std::fs::read(fixtures().join(path)).unwrap();
    let mut buf = vec![0u8; mjb::read_header(&blob).unwrap().model_bytes().unwrap()];
    let header = mjb::load(&blob, &mut buf).unwrap().header();
    (buf, header)
}

#[test]
fn too_small_arena_is_an_error() {
    // the chain with its narena (the size_t after the 76 int sizes) patched to 256 bytes
    let mut blob = std::fs::read(fixtures().join("smooth/chain_joints.mjb")).unwrap();
    let at = 4 * (5 + 76);
    blob[at..at + 8].copy_from_slice(&256u64.to_le_bytes());
    let mut buf = vec![0u8; mjb::read_header(&blob).unwrap().model_bytes().unwrap()];
    let m = mjb::load(&blob, &mut buf).unwrap();
    assert_eq!(m.narena, 256);
    let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = Data::new(&m, &mut dbuf).unwrap();
    let err = mjrs_core::step(&m, &mut d).unwrap_err();
    // MuJoCo reports the same condition as "mj_stackAlloc: insufficient memory"
    assert!(
        matches!(
            err,
            StepError::Arena(ArenaError::OutOfArena { narena: 256, .. })
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("arena out of memory"), "{err}");
}

/// Steps `chain_joints` ten times, lets `spoil` set a bad value, steps once more; returns the
/// warning counters, the time and qpos.
fn warnings_after(spoil: fn(&mut Data)) -> (Vec<i32>, f64, Vec<f64>) {
    let (mut buf, header) = load("smooth/chain_joints.mjb");
    let m = mjrs_core::Model::view(&header, &mut buf).unwrap();
    let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = Data::new(&m, &mut dbuf).unwrap();
    for _ in 0..10 {
        mjrs_core::step(&m, &mut d).unwrap();
    }
    spoil(&mut d);
    mjrs_core::step(&m, &mut d).unwrap();
    (
        d.warning.iter().map(|w| w.number).collect(),
        d.time,
        d.qpos.to_vec(),
    )
}

#[test]
fn nan_positions_warn_and_reset() {
    let (w, time, qpos) = warnings_after(|d| d.qpos[3] = f64::NAN);
    assert_eq!(w[WARN_BADQPOS as usize], 1);
    // reset to qpos0, then one step from there
    assert!((time - 0.002).abs() < 1e-12, "{time}");
    assert!(qpos.iter().all(|x| x.is_finite()));
}

#[test]
fn huge_velocities_warn_and_reset() {
    let (w, time, _) = warnings_after(|d| d.qvel[0] = 1e11);
    assert_eq!(w[WARN_BADQVEL as usize], 1);
    assert!((time - 0.002).abs() < 1e-12);
}

#[test]
fn bad_controls_are_zeroed_with_a_warning() {
    let (w, time, _) = warnings_after(|d| d.ctrl[0] = f64::INFINITY);
    assert_eq!(w[WARN_BADCTRL as usize], 1);
    assert!(
        (time - 0.022).abs() < 1e-12,
        "no reset for bad controls: {time}"
    );
}

#[test]
fn bad_accelerations_warn_and_reset() {
    let (w, _, qpos) = warnings_after(|d| d.qfrc_applied[0] = 1e300);
    assert_eq!(w[WARN_BADQACC as usize], 1);
    assert!(qpos.iter().all(|x| x.is_finite()));
}

#[test]
fn data_of_another_model_is_refused() {
    let (mut buf_a, header_a) = load("smooth/chain_joints.mjb");
    let (mut buf_b, header_b) = load("mjb/hopper.mjb");
    let a = mjrs_core::Model::view(&header_a, &mut buf_a).unwrap();
    let b = mjrs_core::Model::view(&header_b, &mut buf_b).unwrap();
    let mut dbuf = vec![0u8; Data::bytes_needed(b.sizes()).unwrap()];
    let mut d = Data::new(&b, &mut dbuf).unwrap();
    assert_eq!(mjrs_core::step(&a, &mut d), Err(StepError::ModelMismatch));
    assert_eq!(
        mjrs_core::forward(&a, &mut d),
        Err(StepError::ModelMismatch)
    );
}
