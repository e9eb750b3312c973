//! Finite-difference transition matrices (`transition_fd`, MuJoCo's `mjd_transitionFD`) and the
//! state API (`state_size`, `get_state`, `set_state`) against MuJoCo 3.1.6
//! (`fixtures/generate-deriv.sh`, models listed in `fixtures/deriv-models.txt`).
//!
//! Differences of steps nudged by `eps = 1e-6` amplify any rounding difference of a step by
//! 1e6, so agreement here checks the skipped-stage steps (`step_skip`), the perturbation order,
//! the state restores and the quaternion handling bit for bit: the f64 matrices must equal
//! MuJoCo's exactly.

use mjrs_core::types::*;
use mjrs_core::{get_state, set_state, state_size, transition_fd, FdError, StateError};
use mjrs_tests::{fixtures, read_json};
use serde_json::Value;

/// A model of `deriv-models.txt`: name, keyframe, steps of the control law.
struct Case {
    name: String,
    key: Option<i32>,
    steps: usize,
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(fixtures().join("deriv-models.txt")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            Case {
                name: cols[0].to_string(),
                key: cols[2].parse().ok(),
                steps: cols[3].parse().unwrap(),
            }
        })
        .collect()
}

fn blob(name: &str) -> Vec<u8> {
    std::fs::read(fixtures().join("deriv").join(format!("{name}.mjb"))).unwrap()
}

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap_or(f64::NAN))
        .collect()
}

/// The matrices A, B, C, D of one run (C and D empty without sensors).
type Matrices = [Vec<f64>; 4];

/// mjrs's matrices for `case` with the core crate `$core`, its precision's `eps`.
macro_rules! run_fd {
    ($core:ident, $case:expr, $eps:expr, $centered:expr) => {{
        let case: &Case = $case;
        let (_, mats) =
            mjrs_tests::simulate!($core, blob(&case.name), case.key, case.steps, |m, d| {
                let (nx, nu, ns) = (2 * m.nv + m.na, m.nu, m.nsensordata);
                let mut a = vec![0.0; nx * nx];
                let mut b = vec![0.0; nx * nu];
                let mut c = vec![0.0; ns * nx];
                let mut dd = vec![0.0; ns * nu];
                let sensors = ns > 0;
                $core::transition_fd(
                    &m,
                    d,
                    $eps,
                    $centered,
                    Some(&mut a),
                    Some(&mut b),
                    sensors.then_some(&mut c[..]),
                    sensors.then_some(&mut dd[..]),
                )
                .unwrap_or_else(|e| panic!("{}: {e}", case.name));
                let wide = |v: Vec<_>| -> Vec<f64> { v.into_iter().map(f64::from).collect() };
                [wide(a), wide(b), wide(c), wide(dd)]
            });
        mats
    }};
}

/// Largest absolute and mixed (absolute below 1, relative above) difference, and how many
/// elements differ at all.
fn differences(ours: &[f64], reference: &[f64]) -> (f64, f64, usize) {
    assert_eq!(ours.len(), reference.len());
    let mut out = (0.0f64, 0.0f64, 0);
    for (&x, &y) in ours.iter().zip(reference) {
        if x.to_bits() != y.to_bits() && !(x.is_nan() && y.is_nan()) {
            out.2 += 1;
            let d = (x - y).abs();
            out.0 = out.0.max(d);
            out.1 = out.1.max(d / y.abs().max(1.0));
            if d.is_nan() {
                out.0 = f64::NAN;
            }
        }
    }
    out
}

#[test]
fn transition_fd_matches_mujoco_bit_for_bit() {
    let mut failures = Vec::new();
    for case in cases() {
        for (centered, ext) in [(false, "fwd"), (true, "ctr")] {
            let reference = read_json(
                &fixtures()
                    .join("deriv")
                    .join(format!("{}.{ext}.json", case.name)),
            );
            let ours: Matrices = run_fd!(mjrs_core, &case, 1e-6, centered);
            let mut row = Vec::new();
            for (k, name) in ["A", "B", "C", "D"].iter().enumerate() {
                let Some(v) = reference.get(*name) else {
                    assert!(ours[k].is_empty(), "{}: {name} without sensors", case.name);
                    continue;
                };
                let r = numbers(v);
                let shape = numbers(&reference["shapes"][*name]);
                assert_eq!(shape.iter().product::<f64>() as usize, r.len());
                let (abs, mixed, n) = differences(&ours[k], &r);
                row.push(format!("{name} {abs:.1e}/{mixed:.1e} ({n} of {})", r.len()));
                if n > 0 {
                    failures.push(format!(
                        "{} {ext}: {name}: {n} of {} elements differ, max abs {abs:e}, mixed {mixed:e}",
                        case.name,
                        r.len()
                    ));
                }
            }
            println!("{:<26} {ext}  {}", case.name, row.join("  "));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The f32 build cannot match MuJoCo's f64 numbers, and `eps = 1e-6` is below its resolution
/// (about 8 ulps of a unit state). With a perturbation suited to f32 (`eps = 1e-3`, centered)
/// its matrices must be finite and close to the f64 build's at the same `eps` (the f64 build is
/// MuJoCo's, see above): rounding errors of order `f32::EPSILON` times the state and its
/// accelerations are amplified by `1 / eps`. Observed mixed differences are 1e-4 to 8e-3 (the
/// accelerometer rows of `deriv_cartpole`); the bound is 2e-2.
#[test]
fn transition_fd_f32_is_close_to_f64() {
    let mut failures = Vec::new();
    for name in [
        "inverted_double_pendulum",
        "deriv_cartpole",
        "hopper",
        "half_cheetah",
    ] {
        let case = cases().into_iter().find(|c| c.name == name).unwrap();
        let wide: Matrices = run_fd!(mjrs_core, &case, 1e-3, true);
        let narrow: Matrices = run_fd!(mjrs_core_f32, &case, 1e-3, true);
        let mut row = Vec::new();
        for (k, m) in ["A", "B", "C", "D"].iter().enumerate() {
            assert!(
                narrow[k].iter().all(|x| x.is_finite()),
                "{name}: f32 {m} not finite"
            );
            let (abs, mixed, _) = differences(&narrow[k], &wide[k]);
            row.push(format!("{m} {abs:.1e}/{mixed:.1e}"));
            if mixed.is_nan() || mixed > 2e-2 {
                failures.push(format!("{name}: f32 {m} differs from f64 by {mixed:e}"));
            }
        }
        println!("{name:<26} {}", row.join("  "));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A model and data from an MJB fixture, after `steps` of the control law from `key`.
macro_rules! with_data {
    ($name:expr, $key:expr, $steps:expr, |$m:ident, $d:ident| $body:expr) => {{
        let steps: usize = $steps;
        let (_, out) = mjrs_tests::simulate!(mjrs_core, blob($name), $key, steps, |$m, $d| $body);
        out
    }};
}

/// What `transition_fd` restores: the integration state, without the warm start when the model
/// disables warm starts (MuJoCo leaves `qacc_warmstart` of the last nudged step then).
fn restored_spec(m: &mjrs_core::Model) -> i32 {
    if m.opt.disableflags & DSBL_WARMSTART != 0 {
        STATE_INTEGRATION & !STATE_WARMSTART
    } else {
        STATE_INTEGRATION
    }
}

#[test]
fn transition_fd_leaves_the_state_as_it_was() {
    for case in cases() {
        with_data!(&case.name, case.key, case.steps, |m, d| {
            let spec = restored_spec(&m);
            let n = state_size(&m, spec).unwrap();
            let (mut before, mut after) = (vec![0.0; n], vec![0.0; n]);
            get_state(&m, d, &mut before, spec).unwrap();
            let nx = 2 * m.nv + m.na;
            let mut a = vec![0.0; nx * nx];
            transition_fd(&m, d, 1e-6, true, Some(&mut a), None, None, None).unwrap();
            get_state(&m, d, &mut after, spec).unwrap();
            let same = before
                .iter()
                .zip(&after)
                .all(|(x, y)| x.to_bits() == y.to_bits());
            assert!(same, "{}: state changed by transition_fd", case.name);
            assert_eq!(
                d.arena.state.pstack, 0,
                "{}: scratch not released",
                case.name
            );
        });
    }
}

#[test]
fn transition_fd_rejects_bad_output_sizes() {
    with_data!("deriv_free_ball", Some(0), 0, |m, d| {
        let nx = 2 * m.nv + m.na;
        let mut a = vec![0.0; nx * nx - 1];
        assert_eq!(
            transition_fd(&m, d, 1e-6, false, Some(&mut a), None, None, None),
            Err(FdError::OutputSize {
                matrix: "A",
                needed: nx * nx,
                got: nx * nx - 1
            })
        );
        let mut c = vec![0.0; 3];
        let err = transition_fd(&m, d, 1e-6, false, None, None, Some(&mut c), None);
        assert!(
            matches!(err, Err(FdError::OutputSize { matrix: "C", .. })),
            "{err:?}"
        );
    });
}

/// `deriv_cartpole` from its keyframe with `narena` patched into the MJB (the size_t after the
/// 76 int sizes): `f` gets the model and a fresh data.
fn with_arena<R>(narena: u64, f: impl FnOnce(&mjrs_core::Model, &mut mjrs_core::Data) -> R) -> R {
    let mut blob = blob("deriv_cartpole");
    let at = 4 * (5 + 76);
    blob[at..at + 8].copy_from_slice(&narena.to_le_bytes());
    let mut buf = vec![
        0u8;
        mjrs_core::mjb::read_header(&blob)
            .unwrap()
            .model_bytes()
            .unwrap()
    ];
    let m = mjrs_core::mjb::load(&blob, &mut buf).unwrap();
    let mut dbuf = vec![0u8; mjrs_core::Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = mjrs_core::Data::new(&m, &mut dbuf).unwrap();
    mjrs_core::io::reset_data_keyframe(&m, &mut d, 0);
    f(&m, &mut d)
}

#[test]
fn transition_fd_in_a_small_arena_is_an_error_and_restores_the_state() {
    // the arena a step needs, and the one transition_fd needs on top of it
    let step_peak = with_arena(1 << 20, |m, d| {
        mjrs_core::step(m, d).unwrap();
        d.arena.state.maxuse_arena as u64
    });
    let (mut errors, mut successes) = (0, 0);
    let mut narena = step_peak.next_multiple_of(8);
    while successes == 0 {
        with_arena(narena, |m, d| {
            let spec = restored_spec(m);
            let n = state_size(m, spec).unwrap();
            let (mut before, mut after) = (vec![0.0; n], vec![0.0; n]);
            get_state(m, d, &mut before, spec).unwrap();
            let (nx, nu, ns) = (2 * m.nv + m.na, m.nu, m.nsensordata);
            let (mut a, mut b) = (vec![0.0; nx * nx], vec![0.0; nx * nu]);
            let (mut c, mut dd) = (vec![0.0; ns * nx], vec![0.0; ns * nu]);
            let result = transition_fd(
                m,
                d,
                1e-6,
                true,
                Some(&mut a),
                Some(&mut b),
                Some(&mut c),
                Some(&mut dd),
            );
            match result {
                Ok(()) => successes += 1,
                Err(FdError::Step(mjrs_core::StepError::Arena(_))) => errors += 1,
                Err(e) => panic!("narena {narena}: {e}"),
            }
            get_state(m, d, &mut after, spec).unwrap();
            assert_eq!(before, after, "narena {narena}: state not restored");
            assert_eq!(
                d.arena.state.pstack, 0,
                "narena {narena}: scratch not released"
            );
        });
        narena += 8;
    }
    assert!(
        errors > 0,
        "no arena size between a step's and transition_fd's"
    );
}

/// A state element's name in `state_sizes.json` and its constant.
const STATE_NAMES: [(&str, i32); 17] = [
    ("TIME", STATE_TIME),
    ("QPOS", STATE_QPOS),
    ("QVEL", STATE_QVEL),
    ("ACT", STATE_ACT),
    ("WARMSTART", STATE_WARMSTART),
    ("CTRL", STATE_CTRL),
    ("QFRC_APPLIED", STATE_QFRC_APPLIED),
    ("XFRC_APPLIED", STATE_XFRC_APPLIED),
    ("EQ_ACTIVE", STATE_EQ_ACTIVE),
    ("MOCAP_POS", STATE_MOCAP_POS),
    ("MOCAP_QUAT", STATE_MOCAP_QUAT),
    ("USERDATA", STATE_USERDATA),
    ("PLUGIN", STATE_PLUGIN),
    ("PHYSICS", STATE_PHYSICS),
    ("FULLPHYSICS", STATE_FULLPHYSICS),
    ("USER", STATE_USER),
    ("INTEGRATION", STATE_INTEGRATION),
];

#[test]
fn state_sizes_match_mujoco() {
    let reference = read_json(&fixtures().join("deriv").join("state_sizes.json"));
    let reference = reference.as_object().unwrap();
    assert!(reference.len() >= 4);
    for (xml, sizes) in reference {
        let path = fixtures().join("../models").join(xml);
        let mut owned = mjrs_xml::load_xml(&path, None).unwrap().model;
        let m = owned.view();
        assert_eq!(sizes.as_object().unwrap().len(), STATE_NAMES.len(), "{xml}");
        for (name, spec) in STATE_NAMES {
            let expected = sizes[name].as_u64().unwrap() as usize;
            assert_eq!(state_size(&m, spec), Ok(expected), "{xml}: {name}");
        }
        // every composite is the sum of its elements
        let sum: usize = (0..NSTATE).map(|i| state_size(&m, 1 << i).unwrap()).sum();
        assert_eq!(state_size(&m, (1 << NSTATE) - 1), Ok(sum));
        assert_eq!(state_size(&m, 0), Ok(0));
    }
}

#[test]
fn invalid_state_specs_and_short_vectors_are_errors() {
    with_data!("kitchen_sink", Some(0), 0, |m, d| {
        for spec in [1 << NSTATE, (1 << NSTATE) | STATE_QPOS, -1, i32::MIN] {
            assert_eq!(state_size(&m, spec), Err(StateError::InvalidSpec(spec)));
            let mut v = vec![0.0; 1000];
            assert_eq!(
                get_state(&m, d, &mut v, spec),
                Err(StateError::InvalidSpec(spec))
            );
            assert_eq!(
                set_state(&m, d, &v, spec),
                Err(StateError::InvalidSpec(spec))
            );
        }
        let n = state_size(&m, STATE_PHYSICS).unwrap();
        let mut short = vec![0.0; n - 1];
        let too_short = Err(StateError::TooShort {
            needed: n,
            got: n - 1,
        });
        assert_eq!(get_state(&m, d, &mut short, STATE_PHYSICS), too_short);
        let qpos = d.qpos.to_vec();
        assert_eq!(set_state(&m, d, &short, STATE_PHYSICS), too_short);
        assert_eq!(d.qpos, &qpos[..], "a rejected set_state wrote");
    });
}

#[test]
fn state_elements_are_laid_out_in_bit_order() {
    with_data!("kitchen_sink", Some(0), 5, |m, d| {
        d.qfrc_applied[1] = 0.25;
        d.mocap_pos[2] = 1.5;
        d.userdata
            .iter_mut()
            .enumerate()
            .for_each(|(i, u)| *u = i as f64);
        d.eq_active[0] = 0;
        let n = state_size(&m, STATE_INTEGRATION).unwrap();
        let mut all = vec![0.0; n];
        get_state(&m, d, &mut all, STATE_INTEGRATION).unwrap();
        // each element alone is the matching slice of the whole
        let mut adr = 0;
        for i in 0..NSTATE {
            let k = state_size(&m, 1 << i).unwrap();
            let mut one = vec![0.0; k];
            get_state(&m, d, &mut one, 1 << i).unwrap();
            assert_eq!(one, all[adr..adr + k], "element {i}");
            adr += k;
        }
        assert_eq!(adr, n);
        let mut phys = vec![0.0; m.nq + m.nv + m.na];
        get_state(&m, d, &mut phys, STATE_PHYSICS).unwrap();
        let expected: Vec<f64> = [&*d.qpos, &*d.qvel, &*d.act].concat();
        assert_eq!(phys, expected);
        // eq_active goes through numbers and back
        let mut eq = vec![0.0; m.neq];
        get_state(&m, d, &mut eq, STATE_EQ_ACTIVE).unwrap();
        assert_eq!(eq[0], 0.0);
        eq[0] = 1.0;
        set_state(&m, d, &eq, STATE_EQ_ACTIVE).unwrap();
        assert_eq!(d.eq_active[0], 1);
    });
}

#[test]
fn state_round_trip_reproduces_the_next_steps() {
    for name in ["kitchen_sink", "deriv_free_ball", "humanoid"] {
        // the full integration state after 15 steps, and the 5 steps that follow
        let (state, expected) =
            with_data!(name, Some(0).filter(|_| name != "humanoid"), 15, |m, d| {
                d.qfrc_applied.iter_mut().for_each(|x| *x = 0.01);
                let mut state = vec![0.0; state_size(&m, STATE_INTEGRATION).unwrap()];
                get_state(&m, d, &mut state, STATE_INTEGRATION).unwrap();
                for _ in 0..5 {
                    mjrs_core::step(&m, d).unwrap();
                }
                (
                    state,
                    [
                        d.qpos.to_vec(),
                        d.qvel.to_vec(),
                        d.act.to_vec(),
                        vec![d.time],
                    ],
                )
            });
        // a fresh data given that state steps the same, bit for bit
        let got = with_data!(name, None, 0, |m, d| {
            set_state(&m, d, &state, STATE_INTEGRATION).unwrap();
            let mut again = vec![0.0; state.len()];
            get_state(&m, d, &mut again, STATE_INTEGRATION).unwrap();
            assert_eq!(again, state, "{name}: get after set");
            for _ in 0..5 {
                mjrs_core::step(&m, d).unwrap();
            }
            [
                d.qpos.to_vec(),
                d.qvel.to_vec(),
                d.act.to_vec(),
                vec![d.time],
            ]
        });
        assert_eq!(got, expected, "{name}");
    }
}

/// The matrices of `inverse_fd`, in the order of [`INVERSE_NAMES`].
const INVERSE_NAMES: [&str; 7] = ["DfDq", "DfDv", "DfDa", "DsDq", "DsDv", "DsDa", "DmDq"];

/// Every inverse-dynamics Jacobian of `inverse_fd` with core `$core` at the data `$d`, as
/// `[Vec<f64>; 7]` in the order of [`INVERSE_NAMES`].
macro_rules! inverse_fd_all {
    ($core:ident, $m:expr, $d:expr, $eps:expr, $act:expr) => {{
        let (m, d) = ($m, $d);
        let (nv, ns) = (m.nv, m.nsensordata);
        let sizes = [
            nv * nv,
            nv * nv,
            nv * nv,
            nv * ns,
            nv * ns,
            nv * ns,
            nv * m.nM,
        ];
        let mut mats = sizes.map(|n| vec![0.0; n]);
        let [dfdq, dfdv, dfda, dsdq, dsdv, dsda, dmdq] = &mut mats;
        let out = $core::InverseJacobians {
            dfdq: Some(dfdq),
            dfdv: Some(dfdv),
            dfda: Some(dfda),
            dsdq: Some(dsdq),
            dsdv: Some(dsdv),
            dsda: Some(dsda),
            dmdq: Some(dmdq),
        };
        $core::inverse_fd(&m, d, $eps, $act, out)
            .map(|()| mats.map(|v| v.into_iter().map(f64::from).collect::<Vec<f64>>()))
    }};
}

/// The fixtures of `generate-inverse-fd.py`, by name.
fn inverse_fd_fixtures() -> Vec<(String, Value)> {
    let dir = fixtures().join("inverse-fd");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, read_json(&p))
        })
        .collect()
}

/// Runs `f` on the model and data of an inverse-fd fixture: the control-law steps of the
/// fixture, then `forward`; `$core` is the core crate.
macro_rules! at_fixture_state {
    ($core:ident, $fixture:expr, |$m:ident, $d:ident| $body:expr) => {{
        let fx: &Value = $fixture;
        let blob = std::fs::read(fixtures().join(fx["model"].as_str().unwrap())).unwrap();
        let key = fx["key"].as_i64().map(|k| k as i32);
        let steps = fx["steps"].as_u64().unwrap() as usize;
        let (_, out) = mjrs_tests::simulate!($core, blob, key, steps, |$m, $d| {
            $core::forward(&$m, $d).unwrap();
            $body
        });
        out
    }};
}

fn wide<T: Copy + Into<f64>>(v: &[T]) -> Vec<f64> {
    v.iter().map(|&x| x.into()).collect()
}

#[test]
fn inverse_fd_matches_mujoco_bit_for_bit() {
    let all = inverse_fd_fixtures();
    assert!(all.len() >= 15);
    let mut failures = Vec::new();
    for (name, fx) in &all {
        let act = fx["flg_actuation"].as_i64().unwrap() != 0;
        let eps = fx["eps"].as_f64().unwrap();
        let (state, mats, after, restored) = at_fixture_state!(mjrs_core, fx, |m, d| {
            let state = [wide(d.qpos), wide(d.qvel), wide(d.qacc)];
            let mats = inverse_fd_all!(mjrs_core, &m, &mut *d, eps, act)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            let after = [wide(d.qfrc_inverse), wide(d.sensordata)];
            let restored = [wide(d.qpos), wide(d.qvel), wide(d.qacc)];
            (state, mats, after, restored)
        });
        assert_eq!(state, restored, "{name}: state not restored");
        for (k, field) in ["qpos", "qvel", "qacc"].iter().enumerate() {
            let (_, _, n) = differences(&state[k], &numbers(&fx[*field]));
            assert_eq!(
                n, 0,
                "{name}: {field} before inverse_fd differs from MuJoCo's"
            );
        }
        let mut row = Vec::new();
        let compared = INVERSE_NAMES.iter().zip(&mats).chain(
            ["qfrc_inverse_after", "sensordata_after"]
                .iter()
                .zip(&after),
        );
        for (field, ours) in compared {
            let r = numbers(&fx[*field]);
            let (abs, mixed, n) = differences(ours, &r);
            row.push(format!("{field} {n}/{}", r.len()));
            if n > 0 {
                failures.push(format!(
                    "{name}: {field}: {n} of {} differ, max abs {abs:e}, mixed {mixed:e}",
                    r.len()
                ));
            }
        }
        println!("{name:<36} {}", row.join(" "));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// As in MuJoCo, RK4 and noslip are refused (with MuJoCo's message), before anything is written.
#[test]
fn inverse_fd_refuses_rk4_and_noslip() {
    with_data!("humanoid", None, 0, |m, d| {
        assert_eq!(m.opt.integrator, INT_RK4);
        let mut dfdq = vec![1.0; m.nv * m.nv];
        let out = mjrs_core::InverseJacobians {
            dfdq: Some(&mut dfdq),
            ..Default::default()
        };
        let err = mjrs_core::inverse_fd(&m, d, 1e-6, false, out).unwrap_err();
        assert_eq!(err, FdError::Unsupported("RK4 integrator is not supported"));
        assert!(dfdq.iter().all(|&x| x == 1.0));
    });
    let blob = blob("half_cheetah");
    let header = mjrs_core::mjb::read_header(&blob).unwrap();
    let mut mbuf = vec![0u8; header.model_bytes().unwrap()];
    let mut m = mjrs_core::mjb::load(&blob, &mut mbuf).unwrap();
    m.opt.noslip_iterations = 3;
    let mut dbuf = vec![0u8; mjrs_core::Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = mjrs_core::Data::new(&m, &mut dbuf).unwrap();
    let out = mjrs_core::InverseJacobians::default();
    let err = mjrs_core::inverse_fd(&m, &mut d, 1e-6, false, out).unwrap_err();
    assert_eq!(err.to_string(), "noslip solver is not supported");
}

#[test]
fn inverse_fd_rejects_bad_output_sizes() {
    with_data!("deriv_free_ball", Some(0), 0, |m, d| {
        let mut short = vec![0.0; m.nv * m.nsensordata - 1];
        let out = mjrs_core::InverseJacobians {
            dsdv: Some(&mut short),
            ..Default::default()
        };
        assert_eq!(
            mjrs_core::inverse_fd(&m, d, 1e-6, false, out),
            Err(FdError::OutputSize {
                matrix: "DsDv",
                needed: m.nv * m.nsensordata,
                got: m.nv * m.nsensordata - 1
            })
        );
        let mut long = vec![0.0; m.nv * m.nM + 1];
        let out = mjrs_core::InverseJacobians {
            dmdq: Some(&mut long),
            ..Default::default()
        };
        let err = mjrs_core::inverse_fd(&m, d, 1e-6, false, out);
        assert!(
            matches!(err, Err(FdError::OutputSize { matrix: "DmDq", .. })),
            "{err:?}"
        );
    });
}

/// Asking for some Jacobians gives the same numbers as asking for all (the skipped sensors and
/// inputs change nothing else).
#[test]
fn inverse_fd_subsets_agree_with_the_full_run() {
    let (_, fx) = inverse_fd_fixtures()
        .into_iter()
        .find(|(n, _)| n == "sensor_frames")
        .unwrap();
    let (full, dfdv) = at_fixture_state!(mjrs_core, &fx, |m, d| {
        let full = inverse_fd_all!(mjrs_core, &m, &mut *d, 1e-6, false).unwrap();
        let mut dfdv = vec![0.0; m.nv * m.nv];
        let out = mjrs_core::InverseJacobians {
            dfdv: Some(&mut dfdv),
            ..Default::default()
        };
        mjrs_core::inverse_fd(&m, d, 1e-6, false, out).unwrap();
        (full, dfdv)
    });
    assert_eq!(full[1], dfdv);
}

#[test]
fn inverse_fd_in_a_small_arena_is_an_error_and_restores_the_state() {
    let step_peak = with_arena(1 << 20, |m, d| {
        mjrs_core::step(m, d).unwrap();
        d.arena.state.maxuse_arena as u64
    });
    let (mut errors, mut successes) = (0, 0);
    let mut narena = step_peak.next_multiple_of(8) / 2;
    while successes == 0 {
        with_arena(narena, |m, d| {
            let before = [d.qpos.to_vec(), d.qvel.to_vec(), d.qacc.to_vec()];
            match inverse_fd_all!(mjrs_core, m, &mut *d, 1e-6, true) {
                Ok(_) => successes += 1,
                Err(FdError::Step(mjrs_core::StepError::Arena(_))) => errors += 1,
                Err(e) => panic!("narena {narena}: {e}"),
            }
            let after = [d.qpos.to_vec(), d.qvel.to_vec(), d.qacc.to_vec()];
            assert_eq!(before, after, "narena {narena}: state not restored");
            assert_eq!(
                d.arena.state.pstack, 0,
                "narena {narena}: scratch not released"
            );
        });
        narena += 8;
    }
    assert!(errors > 0, "no arena size too small for inverse_fd");
}

/// The f32 build with a perturbation suited to it (`eps = 1e-3`) stays close to the f64 build
/// at the same `eps` (which is MuJoCo's, see above), both around the f64 build's state (the
/// trajectories to it differ, and one contact more or less changes these Jacobians entirely).
/// Rounding errors of order `f32::EPSILON` times the forces are amplified by `1 / eps`, so the
/// differences are measured relative to each matrix's largest entry (an entry that is 0 in
/// f64 is about 1e-3 of the largest in f32 when contact forces cancel): observed up to 4e-3
/// (`rows_limits` DfDa); the bound is 1e-2.
#[test]
fn inverse_fd_f32_is_close_to_f64() {
    let mut failures = Vec::new();
    for (name, fx) in inverse_fd_fixtures() {
        if ![
            "deriv_cartpole",
            "half_cheetah",
            "inverse_robot",
            "rows_limits",
        ]
        .contains(&&*name)
        {
            continue;
        }
        let (state, wide64) = at_fixture_state!(mjrs_core, &fx, |m, d| {
            let state = [
                d.qpos.to_vec(),
                d.qvel.to_vec(),
                d.act.to_vec(),
                d.ctrl.to_vec(),
                vec![d.time],
                d.qacc.to_vec(),
            ];
            (
                state,
                inverse_fd_all!(mjrs_core, &m, &mut *d, 1e-3, true).unwrap(),
            )
        });
        let blob = std::fs::read(fixtures().join(fx["model"].as_str().unwrap())).unwrap();
        let no_steps = 0;
        let (_, narrow) = mjrs_tests::simulate!(mjrs_core_f32, blob, None, no_steps, |m, d| {
            let narrow = |field: &mut [f32], values: &[f64]| {
                for (x, &v) in field.iter_mut().zip(values) {
                    *x = v as f32;
                }
            };
            narrow(d.qpos, &state[0]);
            narrow(d.qvel, &state[1]);
            narrow(d.act, &state[2]);
            narrow(d.ctrl, &state[3]);
            d.time = state[4][0] as f32;
            // forward for what inverse dynamics reads but does not compute (the actuator
            // forces of actuator sensors), then the f64 build's acceleration
            mjrs_core_f32::forward(&m, d).unwrap();
            narrow(d.qacc, &state[5]);
            inverse_fd_all!(mjrs_core_f32, &m, &mut *d, 1e-3, true).unwrap()
        });
        let mut row = Vec::new();
        for (k, field) in INVERSE_NAMES.iter().enumerate() {
            assert!(
                narrow[k].iter().all(|x| x.is_finite()),
                "{name}: f32 {field}"
            );
            let (abs, _, _) = differences(&narrow[k], &wide64[k]);
            let scale = wide64[k].iter().fold(1.0f64, |s, x| s.max(x.abs()));
            let rel = abs / scale;
            row.push(format!("{field} {rel:.1e}"));
            if rel.is_nan() || rel > 1e-2 {
                failures.push(format!("{name}: f32 {field} differs from f64 by {rel:e}"));
            }
        }
        println!("{name:<26} {}", row.join("  "));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
