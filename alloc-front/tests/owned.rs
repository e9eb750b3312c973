//! Owned models and datas on the pendulum test model (`tests/data/pendulum.xml`, compiled to
//! `pendulum.mjb` by MuJoCo 3.1.6 through `mjref mjb`).

use mjrs_alloc::{OwnedData, OwnedModel};
use mjrs_core::mjb::MjbError;

const PENDULUM: &[u8] = include_bytes!("data/pendulum.mjb");

fn pendulum() -> OwnedModel {
    OwnedModel::from_mjb(PENDULUM).expect("the test model loads")
}

#[test]
fn loads_sizes_and_options_from_the_blob() {
    let mut model = pendulum();
    assert_eq!(model.sizes().nq, 2);
    assert_eq!(model.sizes().nkey, 1);
    assert_eq!(model.header().opt.timestep, 0.01);
    let m = model.view();
    assert_eq!(m.nu, 1);
    assert_eq!(m.key_qpos, &[0.7, 0.2]);
}

#[test]
fn option_edits_persist_after_the_guard_is_dropped() {
    let mut model = pendulum();
    {
        let mut m = model.view();
        m.opt.timestep = 0.005;
        m.stat.meanmass = 42.0;
        m.body_mass[1] = 3.0;
    }
    assert_eq!(model.header().opt.timestep, 0.005);
    let m = model.view();
    assert_eq!(m.opt.timestep, 0.005);
    assert_eq!(m.stat.meanmass, 42.0);
    assert_eq!(m.body_mass[1], 3.0);
}

#[test]
fn model_clones_are_independent() {
    let mut model = pendulum();
    let mut copy = model.try_clone().unwrap();
    let mut other = model.clone();
    model.view().body_mass[1] = 9.0;
    model.view().opt.timestep = 0.1;
    for c in [&mut copy, &mut other] {
        let m = c.view();
        assert_eq!(m.body_mass[1], 1.0);
        assert_eq!(m.opt.timestep, 0.01);
    }
}

#[test]
fn to_mjb_writes_mujocos_bytes_back() {
    let mut model = pendulum();
    assert_eq!(model.to_mjb(8).unwrap(), PENDULUM);
    let compact = model.to_mjb(4).unwrap();
    assert!(compact.len() < PENDULUM.len());
    let mut again = OwnedModel::from_mjb(&compact).unwrap();
    // 4-byte mjtNum: the values come back rounded to f32
    assert_eq!(
        again.view().key_qpos,
        &[f64::from(0.7f32), f64::from(0.2f32)]
    );
    assert_eq!(model.to_mjb(5).unwrap_err(), MjbError::BadRealSize(5));
}

#[test]
fn bad_blobs_are_errors() {
    assert!(matches!(
        OwnedModel::from_mjb(&PENDULUM[..100]),
        Err(MjbError::Truncated { .. })
    ));
    assert!(matches!(
        OwnedModel::from_mjb(&[]),
        Err(MjbError::Truncated { .. })
    ));
    let mut wrong = PENDULUM.to_vec();
    wrong[0] = 0;
    assert!(matches!(
        OwnedModel::from_mjb(&wrong),
        Err(MjbError::BadMagic(_))
    ));
}

#[test]
fn a_blob_claiming_a_huge_model_is_rejected_before_allocating() {
    // nq is the first size, after the 5 header ints; 2^30 dofs would need gigabytes
    let mut huge = PENDULUM.to_vec();
    huge[20..24].copy_from_slice(&(1i32 << 30).to_le_bytes());
    assert!(OwnedModel::from_mjb(&huge).is_err());
}

#[test]
fn data_edits_and_clones() {
    let mut model = pendulum();
    let m = model.view();
    let mut data = OwnedData::new(&m).unwrap();
    {
        let mut d = data.view();
        d.qpos.copy_from_slice(&[0.3, -0.1]);
        d.time = 1.25;
        d.warning[2].number = 4;
    }
    assert_eq!(data.header().time, 1.25);
    let copy = data.try_clone().unwrap();
    data.view().qpos[0] = 5.0;
    for mut c in [copy, data.clone()] {
        let d = c.view();
        assert_eq!(d.time, 1.25);
        assert_eq!(d.warning[2].number, 4);
        assert_eq!(d.qpos[1], -0.1);
    }
    assert_eq!(data.view().qpos[0], 5.0);
}

#[test]
fn reset_and_keyframes() {
    let mut model = pendulum();
    let m = model.view();
    let mut data = OwnedData::new(&m).unwrap();
    data.reset_keyframe(&m, 0).unwrap();
    {
        let d = data.view();
        assert_eq!(d.time, 0.5);
        assert_eq!(d.qpos, &[0.7, 0.2]);
        assert_eq!(d.qvel, &[-1.5, 0.25]);
        assert_eq!(d.ctrl, &[0.3]);
    }
    data.reset(&m).unwrap();
    let d = data.view();
    assert_eq!(d.time, 0.0);
    assert_eq!(d.qpos, &[0.0, 0.0]);
    assert_eq!(d.ctrl, &[0.0]);
}

#[test]
fn reset_with_a_model_of_other_sizes_is_an_error() {
    let mut model = pendulum();
    let mut data = OwnedData::new(&model.view()).unwrap();
    let sizes = mjrs_core::ModelSizes {
        nbody: 1,
        ..Default::default()
    };
    let mut empty = OwnedModel::zeroed(sizes).unwrap();
    assert!(data.reset(&empty.view()).is_err());
    assert!(data.reset_keyframe(&empty.view(), 0).is_err());
}
