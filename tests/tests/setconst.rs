//! The compiler's model constants against MuJoCo 3.1.6 (`mjrs_core::setconst`): MJB fixtures
//! hold the values MuJoCo's compiler computed, so overwriting what a function writes and
//! running it again must give the fixture back bit for bit.
//! * `set_const` (`mj_setConst`) on every MJB fixture, with everything it writes garbled;
//! * the compiler's sequence `set_const`, `auto_spring_damper`, `set_length_ranges` on the arm
//!   with muscles and on `setconst_lengthrange.xml` (every actuator by simulation);
//! * `set_length_range` (`mj_setLengthRange`) with other options, and its error messages,
//!   against `fixtures/setconst/lengthrange.json` (MuJoCo's own results, `generate.py`);
//! * `set_total_mass` (`mj_setTotalmass`) against a model compiled with `settotalmass`;
//! * the f32 build within tolerances.

use mjrs_core::setconst::{
    auto_spring_damper, set_length_ranges, LROpt, LengthRangeError, SetConstError,
};
use mjrs_core::types::{EQ_CONNECT, EQ_WELD, LRMODE_ALL, NEQDATA};
use mjrs_core::{mjb, set_const, set_length_range, set_total_mass, Data, Model, StepError};
use mjrs_tests::{compare, fixtures, read_json};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn model_buffer(blob: &[u8]) -> Vec<u8> {
    vec![0u8; mjb::read_header(blob).unwrap().model_bytes().unwrap()]
}

fn data_buffer(m: &Model) -> Vec<u8> {
    vec![0u8; Data::bytes_needed(m.sizes()).unwrap()]
}

/// What MuJoCo's compiler left to `mj_setConst` in a fixture, beyond the fields it always
/// writes.
#[derive(Default)]
struct Knowns {
    /// Welds without `relpose`, whose anchor and relative pose were measured in `qpos0`.
    welds: Vec<usize>,
    /// Tendons without `springlength`, whose spring length was measured in `qpos_spring`.
    springs: Vec<usize>,
    /// Position actuators with their `dampratio`.
    dampratios: Vec<(usize, f64)>,
}

/// Overwrites everything `set_const` writes with NaN (or, where a sentinel selects what is
/// computed, with the sentinel).
fn garble(m: &mut Model, k: &Knowns) {
    for field in [
        &mut *m.body_subtreemass,
        &mut *m.dof_M0,
        &mut *m.body_invweight0,
        &mut *m.dof_invweight0,
        &mut *m.tendon_invweight0,
        &mut *m.flex_xvert0,
        &mut *m.flexedge_length0,
        &mut *m.flexedge_invweight0,
        &mut *m.actuator_acc0,
        &mut *m.tendon_length0,
        &mut *m.actuator_length0,
        &mut *m.cam_pos0,
        &mut *m.cam_poscom0,
        &mut *m.cam_mat0,
        &mut *m.light_pos0,
        &mut *m.light_poscom0,
        &mut *m.light_dir0,
    ] {
        field.fill(f64::NAN);
    }
    // statistics without anything to measure keep the value they had, MuJoCo's default
    let default = mjrs_core::Statistic::default();
    m.stat.meaninertia = if m.nv > 0 {
        f64::NAN
    } else {
        default.meaninertia
    };
    let bodies = m.nbody > 1;
    m.stat.meanmass = if bodies { f64::NAN } else { default.meanmass };
    m.stat.meansize = if bodies { f64::NAN } else { default.meansize };
    m.stat.extent = if bodies { f64::NAN } else { default.extent };
    m.stat.center = [f64::NAN; 3];
    for i in 0..m.neq {
        let data = &mut m.eq_data[NEQDATA * i..NEQDATA * (i + 1)];
        if m.eq_type[i] == EQ_CONNECT {
            data[3..6].fill(f64::NAN);
        } else if m.eq_type[i] == EQ_WELD && k.welds.contains(&i) {
            data[3..6].fill(f64::NAN);
            data[6..10].fill(0.0);
        }
    }
    for &t in &k.springs {
        m.tendon_lengthspring[2 * t..2 * t + 2].fill(-1.0);
    }
    for &(a, ratio) in &k.dampratios {
        m.actuator_biasprm[10 * a + 2] = ratio;
    }
}

/// Panics unless `m` saves to exactly the bytes of `blob`, naming the fields that differ.
fn assert_same_model(name: &str, m: &Model, blob: &[u8]) {
    let mut out = vec![0u8; mjb::save_size(m, 8)];
    let n = mjb::save(m, &mut out, 8).unwrap();
    if out[..n] == *blob {
        return;
    }
    let mut buf = model_buffer(blob);
    let reference = mjb::load(blob, &mut buf).unwrap();
    let json = |m: &Model| -> Value { serde_json::from_str(&mjrs::dump::model_json(m)).unwrap() };
    let report = compare(&json(&reference), &json(m));
    panic!(
        "{name}: the model differs from MuJoCo's\n{}",
        report.summary(0.0)
    );
}

/// Every MJB file in a fixture folder, sorted.
fn blobs(dir: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(fixtures().join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "mjb"))
        .collect();
    v.sort();
    v
}

/// Loads `blob`, garbles it with `k`, runs `set_const` on a fresh data, and compares.
fn check_set_const(name: &str, blob: &[u8], k: &Knowns) {
    let mut buf = model_buffer(blob);
    let mut m = mjb::load(blob, &mut buf).unwrap();
    let mut dbuf = data_buffer(&m);
    let mut d = Data::new(&m, &mut dbuf).unwrap();
    garble(&mut m, k);
    set_const(&mut m, &mut d).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_same_model(name, &m, blob);
}

#[test]
fn set_const_restores_every_mjb_fixture() {
    let paths = blobs("mjb");
    assert!(paths.len() >= 13);
    for path in paths {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let blob = read(&path);
        let mut buf = model_buffer(&blob);
        let ntendon = mjb::load(&blob, &mut buf).unwrap().ntendon;
        // kitchen_sink: the weld has no relpose, the rope tendon has a springlength
        let k = Knowns {
            welds: if name == "kitchen_sink" {
                vec![2]
            } else {
                vec![]
            },
            springs: (0..ntendon)
                .filter(|&t| !(name == "kitchen_sink" && t == 1))
                .collect(),
            dampratios: vec![],
        };
        check_set_const(&name, &blob, &k);
    }
}

/// Every other MJB fixture of the conformance suites (237 models: solvers, constraint rows,
/// collisions, passive forces, sparse Jacobians, flexes, ...), garbling the fields no XML attribute
/// sets (welds and tendon spring lengths are left as they are, since some of these models give
/// `relpose` or `springlength`).
#[test]
fn set_const_restores_every_conformance_fixture() {
    // models whose XML sets <statistic>: the compiler overrides what mj_setConst computed
    const USER_STATISTIC: &[&str] = &["rows/mj_soft_weld.mjb", "constraint/rows_mj_soft_weld.mjb"];
    let mut count = 0;
    for dir in [
        "smooth",
        "constraint",
        "rows",
        "solver",
        "collision",
        "convex",
        "misc",
        "flexcore",
    ] {
        for path in blobs(dir) {
            let name = format!("{dir}/{}", path.file_name().unwrap().to_string_lossy());
            let blob = read(&path);
            let mut buf = model_buffer(&blob);
            let mut m = mjb::load(&blob, &mut buf).unwrap();
            let stat = m.stat;
            let mut dbuf = data_buffer(&m);
            let mut d = Data::new(&m, &mut dbuf).unwrap();
            garble(&mut m, &Knowns::default());
            set_const(&mut m, &mut d).unwrap_or_else(|e| panic!("{name}: {e}"));
            if USER_STATISTIC.contains(&name.as_str()) {
                m.stat = stat;
            }
            assert_same_model(&name, &m, &blob);
            count += 1;
        }
    }
    assert!(count >= 200, "{count} fixtures");
}

#[test]
fn set_const_restores_welds_springs_dampratios_and_targets() {
    // weld 0 has no relpose (weld 1 has one); tendon 1 has a springlength; actuator 1 is a
    // position servo with dampratio 0.8
    let blob = read(&fixtures().join("setconst/lengthrange.mjb"));
    let k = Knowns {
        welds: vec![0],
        springs: vec![0, 2],
        dampratios: vec![(1, 0.8)],
    };
    check_set_const("setconst/lengthrange", &blob, &k);
}

/// `mjCModel::TryCompile` after the model is built: `mj_setConst`, `AutoSpringDamper`,
/// `LengthRange`, each on the same data.
fn compiler_sequence(m: &mut Model, springdamper: &[[f64; 2]], lr: &LROpt) {
    let mut dbuf = data_buffer(m);
    let mut d = Data::new(m, &mut dbuf).unwrap();
    set_const(m, &mut d).unwrap();
    auto_spring_damper(m, springdamper);
    set_length_ranges(m, &mut d, lr).unwrap();
}

#[test]
fn compiler_sequence_reproduces_muscle_length_ranges() {
    let blob = read(&fixtures().join("mjb/arm26.mjb"));
    let mut buf = model_buffer(&blob);
    let mut m = mjb::load(&blob, &mut buf).unwrap();
    let k = Knowns {
        springs: (0..m.ntendon).collect(),
        ..Knowns::default()
    };
    garble(&mut m, &k);
    m.actuator_lengthrange.fill(0.0);
    compiler_sequence(&mut m, &[], &LROpt::default());
    assert_same_model("arm26", &m, &blob);
}

#[test]
fn compiler_sequence_reproduces_all_actuator_length_ranges_and_spring_dampers() {
    let blob = read(&fixtures().join("setconst/lengthrange.mjb"));
    let mut buf = model_buffer(&blob);
    let mut m = mjb::load(&blob, &mut buf).unwrap();
    let k = Knowns {
        welds: vec![0],
        springs: vec![0, 2],
        dampratios: vec![(1, 0.8)],
    };
    garble(&mut m, &k);
    m.actuator_lengthrange.fill(0.0);
    // shoulder and elbow have springdamper: their stiffness and damping are computed
    m.jnt_stiffness[..2].fill(f64::NAN);
    m.dof_damping[..2].fill(f64::NAN);
    let mut springdamper = vec![[0.0; 2]; m.njnt];
    springdamper[0] = [0.5, 0.7];
    springdamper[1] = [0.2, 1.0];
    // <lengthrange mode="all" inttotal="4" interval="1" timestep="0.005"/>
    let lr = LROpt {
        mode: LRMODE_ALL,
        inttotal: 4.0,
        interval: 1.0,
        timestep: 0.005,
        ..LROpt::default()
    };
    let opt = m.opt;
    compiler_sequence(&mut m, &springdamper, &lr);
    assert_eq!(m.opt, opt, "options restored");
    assert_same_model("setconst/lengthrange", &m, &blob);
}

#[test]
fn existing_length_ranges_are_kept() {
    // the kitchen sink's muscle has lengthrange="0.5 1.2"; other actuators are not muscles
    let blob = read(&fixtures().join("mjb/kitchen_sink.mjb"));
    let mut buf = model_buffer(&blob);
    let mut m = mjb::load(&blob, &mut buf).unwrap();
    let mut dbuf = data_buffer(&m);
    let mut d = Data::new(&m, &mut dbuf).unwrap();
    set_length_ranges(&mut m, &mut d, &LROpt::default()).unwrap();
    assert_eq!(&m.actuator_lengthrange[10..12], &[0.5, 1.2]);
    assert_same_model("kitchen_sink", &m, &blob);
}

/// The options of a case of `lengthrange.json`.
fn lr_opt(v: &Value) -> LROpt {
    let f = |k: &str| v[k].as_f64().unwrap();
    LROpt {
        mode: v["mode"].as_i64().unwrap() as i32,
        useexisting: v["useexisting"].as_i64().unwrap() != 0,
        uselimit: v["uselimit"].as_i64().unwrap() != 0,
        accel: f("accel"),
        maxforce: f("maxforce"),
        timeconst: f("timeconst"),
        timestep: f("timestep"),
        inttotal: f("inttotal"),
        interval: f("interval"),
        tolrange: f("tolrange"),
    }
}

/// The cases of `lengthrange.json` in runs: consecutive cases on one model with the same
/// options, which MuJoCo ran one after the other on the same model and data (a muscle's range
/// found first changes its passive force when actuation is on).
fn lengthrange_runs() -> Vec<Vec<Value>> {
    let cases = read_json(&fixtures().join("setconst/lengthrange.json"));
    let cases = cases.as_array().unwrap();
    assert!(cases.len() >= 30);
    let setup = |c: &Value| ["model", "opt", "disableflags", "timestep"].map(|k| c[k].clone());
    let mut runs: Vec<Vec<Value>> = Vec::new();
    for case in cases {
        match runs.last_mut() {
            Some(run) if setup(&run[0]) == setup(case) => run.push(case.clone()),
            _ => runs.push(vec![case.clone()]),
        }
    }
    runs
}

#[test]
fn set_length_range_matches_mujoco_results_and_messages() {
    let mut errors = 0;
    for run in lengthrange_runs() {
        let model = run[0]["model"].as_str().unwrap();
        let blob = read(&fixtures().join(model));
        let mut buf = model_buffer(&blob);
        let mut m = mjb::load(&blob, &mut buf).unwrap();
        m.opt.disableflags = run[0]["disableflags"].as_i64().unwrap() as i32;
        m.opt.timestep = run[0]["timestep"].as_f64().unwrap();
        let lr = lr_opt(&run[0]["opt"]);
        let mut dbuf = data_buffer(&m);
        let mut d = Data::new(&m, &mut dbuf).unwrap();
        for case in &run {
            let index = case["actuator"].as_u64().unwrap() as usize;
            let what = format!("{model} actuator {index} ({})", case["opt"]);
            match (&case["error"], set_length_range(&mut m, &mut d, index, &lr)) {
                (Value::String(msg), Err(e)) => {
                    assert_eq!(&e.to_string(), msg, "{what}");
                    errors += 1;
                }
                (Value::Null, Ok(())) => {
                    let expected: Vec<u64> = case["lengthrange"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|x| x.as_f64().unwrap().to_bits())
                        .collect();
                    let ours = &m.actuator_lengthrange[2 * index..2 * index + 2];
                    let bits: Vec<u64> = ours.iter().map(|x| x.to_bits()).collect();
                    assert_eq!(bits, expected, "{what}: {ours:?}");
                }
                (expected, got) => panic!("{what}: expected {expected}, got {got:?}"),
            }
        }
    }
    // non-convergence on either side, an empty range, an unstable simulation
    assert!(errors >= 6, "{errors} error cases");
}

#[test]
fn set_length_range_rejects_bad_index_and_foreign_data() {
    let blob = read(&fixtures().join("mjb/arm26.mjb"));
    let mut buf = model_buffer(&blob);
    let mut m = mjb::load(&blob, &mut buf).unwrap();
    let mut dbuf = data_buffer(&m);
    let mut d = Data::new(&m, &mut dbuf).unwrap();
    let nu = m.nu;
    let e = set_length_range(&mut m, &mut d, nu, &LROpt::default()).unwrap_err();
    assert_eq!(e, LengthRangeError::InvalidIndex { index: 6 });
    assert_eq!(e.to_string(), "mj_setLengthRange: invalid actuator index");

    let other = read(&fixtures().join("mjb/hopper.mjb"));
    let mut obuf = model_buffer(&other);
    let mut o = mjb::load(&other, &mut obuf).unwrap();
    assert_eq!(
        set_length_range(&mut o, &mut d, 0, &LROpt::default()),
        Err(LengthRangeError::Step(StepError::ModelMismatch))
    );
    assert_eq!(
        set_const(&mut o, &mut d),
        Err(SetConstError::Step(StepError::ModelMismatch))
    );
}

#[test]
fn recurring_resets_are_an_error_not_a_hang() {
    // a NaN in the connect constraint's data makes every step bad: the state checks reset the
    // simulation at every step and MuJoCo 3.1.6's loop never ends (mj_setLengthRange on this
    // model does not return within minutes); mjrs reports the instability
    let blob = read(&fixtures().join("setconst/lengthrange.mjb"));
    let mut buf = model_buffer(&blob);
    let mut m = mjb::load(&blob, &mut buf).unwrap();
    assert_eq!(m.eq_type[2], EQ_CONNECT);
    m.eq_data[NEQDATA * 2 + 3..NEQDATA * 2 + 6].fill(f64::NAN);
    m.opt.disableflags = 4 | 16 | 32 | 64 | 1024;
    m.opt.timestep = 0.005;
    let lr = LROpt {
        mode: LRMODE_ALL,
        useexisting: false,
        inttotal: 4.0,
        interval: 1.0,
        ..LROpt::default()
    };
    let mut dbuf = data_buffer(&m);
    let mut d = Data::new(&m, &mut dbuf).unwrap();
    let e = set_length_range(&mut m, &mut d, 0, &lr).unwrap_err();
    assert_eq!(e, LengthRangeError::Unstable { actuator: 0 });
    assert_eq!(
        e.to_string(),
        "Unstable lengthrange simulation in actuator 0"
    );
    // a negative timestep never advances time either
    m.eq_data
        .copy_from_slice(&mjb::load(&blob, &mut model_buffer(&blob)).unwrap().eq_data);
    m.opt.timestep = -0.005;
    let e = set_length_range(&mut m, &mut d, 0, &lr).unwrap_err();
    assert_eq!(e, LengthRangeError::Unstable { actuator: 0 });
}

#[test]
fn massless_translating_body_is_an_error() {
    // body 5 moves on a slide joint only (body_simple = 2)
    let blob = read(&fixtures().join("setconst/lengthrange.mjb"));
    let mut buf = model_buffer(&blob);
    let mut m = mjb::load(&blob, &mut buf).unwrap();
    assert_eq!(m.body_simple[5], 2);
    m.body_mass[5] = 0.0;
    let mut dbuf = data_buffer(&m);
    let mut d = Data::new(&m, &mut dbuf).unwrap();
    let e = set_const(&mut m, &mut d).unwrap_err();
    assert_eq!(e, SetConstError::ZeroMass { body: 5 });
    assert_eq!(e.to_string(), "set0: moving body 5 has 0 mass");
}

#[test]
fn set_total_mass_then_set_const_matches_settotalmass() {
    let scaled = read(&fixtures().join("setconst/totalmass.mjb"));
    let blob = read(&fixtures().join("setconst/totalmass_unscaled.mjb"));
    let mut buf = model_buffer(&blob);
    let mut m = mjb::load(&blob, &mut buf).unwrap();
    set_total_mass(&mut m, 7.5);
    let mut dbuf = data_buffer(&m);
    let mut d = Data::new(&m, &mut dbuf).unwrap();
    set_const(&mut m, &mut d).unwrap();
    assert_same_model("setconst/totalmass", &m, &scaled);
}

// ------------------------------------------------------------------------------------------------
// f32 build

/// Loads an MJB fixture into the f32 build.
fn f32_buffer(blob: &[u8]) -> Vec<u8> {
    vec![
        0u8;
        mjrs_core_f32::mjb::read_header(blob)
            .unwrap()
            .model_bytes()
            .unwrap()
    ]
}

/// Largest difference, absolute below 1 and relative above, between f32 values and f64 ones.
fn max_diff(ours: &[f32], reference: &[f64]) -> f64 {
    assert_eq!(ours.len(), reference.len());
    ours.iter()
        .zip(reference)
        .map(|(&x, &y)| (f64::from(x) - y).abs() / y.abs().max(1.0))
        .fold(0.0, f64::max)
}

#[test]
fn f32_set_const_stays_close() {
    use mjrs_core_f32::{mjb as mjb32, setconst as sc32, Data as Data32};
    for path in blobs("mjb").into_iter().chain(blobs("setconst")) {
        let name = path.display().to_string();
        let blob = read(&path);
        let mut buf = model_buffer(&blob);
        let reference = mjb::load(&blob, &mut buf).unwrap();
        let mut buf32 = f32_buffer(&blob);
        let mut m = mjb32::load(&blob, &mut buf32).unwrap();
        let mut dbuf = vec![0u8; Data32::bytes_needed(m.sizes()).unwrap()];
        let mut d = Data32::new(&m, &mut dbuf).unwrap();
        m.body_subtreemass.fill(f32::NAN);
        m.dof_M0.fill(f32::NAN);
        m.body_invweight0.fill(f32::NAN);
        m.dof_invweight0.fill(f32::NAN);
        m.tendon_invweight0.fill(f32::NAN);
        m.actuator_acc0.fill(f32::NAN);
        m.tendon_length0.fill(f32::NAN);
        m.actuator_length0.fill(f32::NAN);
        m.cam_pos0.fill(f32::NAN);
        m.light_dir0.fill(f32::NAN);
        sc32::set_const(&mut m, &mut d).unwrap_or_else(|e| panic!("{name}: {e}"));
        // inverse weights go through a factorization in single precision
        for (field, ours, theirs, tol) in [
            (
                "body_subtreemass",
                &*m.body_subtreemass,
                &*reference.body_subtreemass,
                1e-6,
            ),
            ("dof_M0", &*m.dof_M0, &*reference.dof_M0, 1e-5),
            (
                "body_invweight0",
                &*m.body_invweight0,
                &*reference.body_invweight0,
                1e-3,
            ),
            (
                "dof_invweight0",
                &*m.dof_invweight0,
                &*reference.dof_invweight0,
                1e-3,
            ),
            (
                "tendon_invweight0",
                &*m.tendon_invweight0,
                &*reference.tendon_invweight0,
                1e-3,
            ),
            (
                "actuator_acc0",
                &*m.actuator_acc0,
                &*reference.actuator_acc0,
                1e-3,
            ),
            (
                "tendon_length0",
                &*m.tendon_length0,
                &*reference.tendon_length0,
                1e-5,
            ),
            (
                "actuator_length0",
                &*m.actuator_length0,
                &*reference.actuator_length0,
                1e-5,
            ),
            ("cam_pos0", &*m.cam_pos0, &*reference.cam_pos0, 1e-5),
            ("light_dir0", &*m.light_dir0, &*reference.light_dir0, 1e-5),
        ] {
            let diff = max_diff(ours, theirs);
            assert!(diff <= tol, "{name}: f32 {field} differs by {diff:e}");
        }
        let stat = [
            (m.stat.meaninertia, reference.stat.meaninertia),
            (m.stat.meansize, reference.stat.meansize),
            (m.stat.extent, reference.stat.extent),
        ];
        for (ours, theirs) in stat {
            let diff = max_diff(&[ours], &[theirs]);
            assert!(diff <= 1e-5, "{name}: f32 stat differs by {diff:e}");
        }
    }
}

#[test]
fn f32_length_ranges_stay_close() {
    use mjrs_core_f32::{mjb as mjb32, setconst as sc32, Data as Data32};
    let blob = read(&fixtures().join("mjb/arm26.mjb"));
    let mut buf = model_buffer(&blob);
    let reference = mjb::load(&blob, &mut buf).unwrap();
    let mut buf32 = f32_buffer(&blob);
    let mut m = mjb32::load(&blob, &mut buf32).unwrap();
    let mut dbuf = vec![0u8; Data32::bytes_needed(m.sizes()).unwrap()];
    let mut d = Data32::new(&m, &mut dbuf).unwrap();
    m.actuator_lengthrange.fill(0.0);
    sc32::set_length_ranges(&mut m, &mut d, &sc32::LROpt::default()).unwrap();
    let diff = max_diff(&m.actuator_lengthrange, &reference.actuator_lengthrange);
    assert!(diff <= 1e-3, "f32 lengthrange differs by {diff:e}");
}
