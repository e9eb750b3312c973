//! Rollouts and the thread pool (issue 8): `mjrs_core::rollout::rollout` and
//! `mjrs_std::rollout_threaded` against MuJoCo 3.1.6's Python `mujoco.rollout.rollout`
//! (tests/fixtures/rollout, from generate-rollout.py), bit for bit, with any number of threads;
//! a data bound to a thread pool steps to the same bits; bad buffers are errors.

use mjrs_alloc::{OwnedData, OwnedModel};
use mjrs_core::rollout::{rollout, RolloutBuffers, RolloutError};
use mjrs_core::types::{STATE_CTRL, STATE_FULLPHYSICS, STATE_QPOS};
use mjrs_std::{bind_thread_pool, rollout_threaded, TaskStatus, ThreadPool};
use mjrs_tests::{fixtures, read_json};
use serde_json::Value;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

fn model() -> OwnedModel {
    let blob = std::fs::read(fixtures().join("rollout/rollout_arm.mjb")).unwrap();
    OwnedModel::from_mjb(&blob).unwrap()
}

fn reals(v: &Value) -> Option<Vec<f64>> {
    let list = v.as_array()?;
    Some(
        list.iter()
            .map(|x| match x {
                Value::String(s) if s == "nan" => f64::NAN,
                x => x.as_f64().unwrap(),
            })
            .collect(),
    )
}

/// Same bits, NaN equal to NaN.
fn same_bits(ours: &[f64], theirs: &[f64]) -> Option<usize> {
    assert_eq!(ours.len(), theirs.len());
    ours.iter()
        .zip(theirs)
        .position(|(a, b)| a.to_bits() != b.to_bits() && !(a.is_nan() && b.is_nan()))
}

/// Runs every fixture case with `threads` threads (0: the core's one-data `rollout`) and
/// checks the outputs against MuJoCo's.
fn check_fixture(threads: usize) {
    let fixture = read_json(&fixtures().join("rollout/rollout_arm.json"));
    let mut owned = model();
    let m = owned.view();
    let mut checked = 0;
    for case in fixture["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let spec = case["control_spec"].as_i64().unwrap() as i32;
        let nroll = case["nroll"].as_u64().unwrap() as usize;
        let nstep = case["nstep"].as_u64().unwrap() as usize;
        let state0 = reals(&case["state0"]).unwrap();
        let warmstart0 = reals(&case["warmstart0"]);
        let control = reals(&case["control"]).unwrap();
        let (want_state, want_sensor) = (
            reals(&case["state"]).unwrap(),
            reals(&case["sensordata"]).unwrap(),
        );
        let mut state = vec![0.0; want_state.len()];
        let mut sensordata = vec![0.0; want_sensor.len()];
        let b = RolloutBuffers {
            state0: &state0,
            warmstart0: warmstart0.as_deref(),
            control: Some(&control),
            state: Some(&mut state),
            sensordata: Some(&mut sensordata),
        };
        if threads == 0 {
            let mut data = OwnedData::new(&m).unwrap();
            rollout(&m, &mut data.view(), nroll, nstep, spec, b).unwrap();
        } else {
            let pool = ThreadPool::create(threads).unwrap();
            let data = OwnedData::new(&m).unwrap();
            let mut datas = vec![data; threads];
            rollout_threaded(&pool, &m, &mut datas, nroll, nstep, spec, b).unwrap();
        }
        if let Some(i) = same_bits(&state, &want_state) {
            panic!(
                "{name}, {threads} threads: state[{i}] = {} vs MuJoCo {}",
                state[i], want_state[i]
            );
        }
        if let Some(i) = same_bits(&sensordata, &want_sensor) {
            panic!("{name}, {threads} threads: sensordata[{i}] differs");
        }
        checked += 1;
    }
    assert_eq!(checked, 4);
}

#[test]
fn rollout_matches_mujoco() {
    check_fixture(0);
}

#[test]
fn threaded_rollout_matches_mujoco_for_any_thread_count() {
    for threads in [1, 2, 3, 7] {
        check_fixture(threads);
    }
}

#[test]
fn a_warning_freezes_the_rest_of_the_rollout() {
    // case "nan_start": rollout 1 starts with a NaN velocity; MuJoCo resets the data and warns,
    // and every later output repeats the first
    let fixture = read_json(&fixtures().join("rollout/rollout_arm.json"));
    let case = &fixture["cases"][3];
    assert_eq!(case["name"], "nan_start");
    let state = reals(&case["state"]).unwrap();
    let nstate = state.len() / 30;
    let roll1: Vec<&[f64]> = state[10 * nstate..20 * nstate].chunks(nstate).collect();
    assert!(roll1.iter().all(|s| s == &roll1[0]), "rollout 1 froze");
    let roll0: Vec<&[f64]> = state[..10 * nstate].chunks(nstate).collect();
    assert_ne!(roll0[0], roll0[9], "rollout 0 moved");
}

fn buffers<'b>(state0: &'b [f64], control: &'b [f64], state: &'b mut [f64]) -> RolloutBuffers<'b> {
    RolloutBuffers {
        state0,
        warmstart0: None,
        control: Some(control),
        state: Some(state),
        sensordata: None,
    }
}

fn bad_case(
    nroll: usize,
    nstep: usize,
    spec: i32,
    lens: [usize; 3],
    datas: usize,
) -> (Result<(), RolloutError>, Result<(), RolloutError>) {
    let mut owned = model();
    let m = owned.view();
    let [nstate0, ncontrol, nout] = lens;
    let (state0, control) = (vec![0.0; nstate0], vec![0.0; ncontrol]);
    let mut state = vec![0.0; nout];
    let mut data = OwnedData::new(&m).unwrap();
    let serial = rollout(
        &m,
        &mut data.view(),
        nroll,
        nstep,
        spec,
        buffers(&state0, &control, &mut state),
    );
    let pool = ThreadPool::create(2).unwrap();
    let mut ds = vec![data; datas];
    let b = buffers(&state0, &control, &mut state);
    let threaded = rollout_threaded(&pool, &m, &mut ds, nroll, nstep, spec, b);
    (serial, threaded)
}

#[test]
fn bad_batches_are_errors() {
    let mut owned = model();
    let nstate = mjrs_core::state_size(&owned.view(), STATE_FULLPHYSICS).unwrap();
    let nu = owned.view().nu;
    // zero batch
    let (a, b) = bad_case(0, 5, STATE_CTRL, [0, 0, 0], 2);
    assert_eq!(
        (a, b),
        (Err(RolloutError::EmptyBatch), Err(RolloutError::EmptyBatch))
    );
    // initial states of the wrong length
    let a = bad_case(2, 5, STATE_CTRL, [nstate, 2 * 5 * nu, 2 * 5 * nstate], 2)
        .0
        .unwrap_err();
    assert!(
        matches!(a, RolloutError::BufferSize { name: "state0", .. }),
        "{a}"
    );
    // controls of the wrong length
    let a = bad_case(2, 5, STATE_CTRL, [2 * nstate, 5 * nu, 2 * 5 * nstate], 2)
        .0
        .unwrap_err();
    assert!(
        matches!(
            a,
            RolloutError::BufferSize {
                name: "control",
                ..
            }
        ),
        "{a}"
    );
    // outputs of the wrong length
    let (a, b) = bad_case(2, 5, STATE_CTRL, [2 * nstate, 2 * 5 * nu, 5 * nstate], 2);
    let (a, b) = (a.unwrap_err(), b.unwrap_err());
    assert!(
        matches!(a, RolloutError::BufferSize { name: "state", .. }),
        "{a}"
    );
    assert_eq!(a, b);
    // a control spec beyond user inputs
    let a = bad_case(1, 1, STATE_QPOS, [nstate, 1, nstate], 2)
        .0
        .unwrap_err();
    assert_eq!(a, RolloutError::BadControlSpec(STATE_QPOS));
    // fewer datas than threads
    let (a, b) = bad_case(2, 1, STATE_CTRL, [2 * nstate, 2 * nu, 2 * nstate], 1);
    assert_eq!(
        (a, b),
        (Ok(()), Err(RolloutError::DataCount { needed: 2, got: 1 }))
    );
    // datas of another model
    let other = std::fs::read(fixtures().join(mjrs_tests::CONTACT_SOLVER_MJBS[0])).unwrap();
    let mut other = OwnedModel::from_mjb(&other).unwrap();
    let mut foreign = vec![OwnedData::new(&other.view()).unwrap(); 2];
    let mut owned = model();
    let m = owned.view();
    let (state0, control) = (vec![0.0; nstate], vec![0.0; nu]);
    let pool = ThreadPool::create(2).unwrap();
    let b = RolloutBuffers {
        state0: &state0,
        control: Some(&control),
        ..Default::default()
    };
    let e = rollout_threaded(&pool, &m, &mut foreign, 1, 1, STATE_CTRL, b).unwrap_err();
    assert_eq!(e, RolloutError::ModelMismatch);
    assert!(ThreadPool::create(0).is_err());
    assert!(ThreadPool::create(mjrs_std::thread_pool::MAXTHREAD + 1).is_err());
}

#[test]
fn bound_thread_pool_steps_to_the_same_bits() {
    // inertia and collision run at the same time on a bound pool: same results, every model
    // with contacts of the solver fixtures
    let pool = ThreadPool::create(2).unwrap();
    for name in mjrs_tests::CONTACT_SOLVER_MJBS {
        let blob = std::fs::read(fixtures().join(name)).unwrap();
        let mut owned = OwnedModel::from_mjb(&blob).unwrap();
        let m = owned.view();
        let mut serial = OwnedData::new(&m).unwrap();
        let mut pooled = OwnedData::new(&m).unwrap();
        for _ in 0..100 {
            let mut d = serial.view();
            mjrs::control::sine(&m, &mut d);
            mjrs_core::step(&m, &mut d).unwrap();
            let mut d = pooled.view();
            bind_thread_pool(&mut d, &pool);
            mjrs::control::sine(&m, &mut d);
            mjrs_core::step(&m, &mut d).unwrap();
        }
        let (a, b) = (serial.view(), pooled.view());
        for (name, x, y) in [
            ("qpos", &*a.qpos, &*b.qpos),
            ("qvel", &*a.qvel, &*b.qvel),
            ("qLD", &*a.qLD, &*b.qLD),
            ("qacc", &*a.qacc, &*b.qacc),
        ] {
            assert_eq!(same_bits(x, y), None, "{name} of {}", a.ncon);
        }
        assert_eq!(a.ncon, b.ncon);
        assert!(a.ncon > 0 || a.nefc > 0, "{name} has constraints");
    }
}

#[test]
fn tasks_run_and_join() {
    let pool = ThreadPool::create(3).unwrap();
    assert_eq!(pool.nworker(), 3);
    assert_eq!(pool.current_worker_id(), None);
    let count = Arc::new(AtomicUsize::new(0));
    let tasks: Vec<_> = (0..20)
        .map(|_| {
            let count = Arc::clone(&count);
            pool.enqueue(move || {
                count.fetch_add(1, Ordering::SeqCst);
            })
        })
        .collect();
    for t in tasks {
        assert_ne!(t.status(), TaskStatus::New);
        t.join().unwrap();
    }
    assert_eq!(count.load(Ordering::SeqCst), 20);
    // a panicking task is reported, and the pool keeps working
    let bad = pool.enqueue(|| panic!("task failure under test"));
    assert!(bad.join().is_err());
    let ids = Arc::new(std::sync::Mutex::new(Vec::new()));
    let ids2 = Arc::clone(&ids);
    let worker = pool.enqueue(move || {
        ids2.lock()
            .unwrap()
            .push(std::thread::current().name().map(String::from))
    });
    worker.join().unwrap();
    assert!(ids.lock().unwrap()[0]
        .as_deref()
        .unwrap()
        .starts_with("mjrs-worker-"));
    // borrowed jobs on every worker index
    let seen = std::sync::Mutex::new(vec![0usize; 100]);
    pool.run_jobs(100, |j, w| {
        assert!(w < 3);
        seen.lock().unwrap()[j] += 1;
    });
    assert!(seen.into_inner().unwrap().iter().all(|&n| n == 1));
}

#[test]
fn cli_batch_matches_stepping_one_data() {
    // rollout 0 of `mjrs rollout` follows the control law from the reset state, as stepping
    // one data does
    let mut owned = model();
    let m = owned.view();
    let batch = mjrs::rollout::Batch {
        nroll: 3,
        nstep: 25,
        threads: 2,
        key: None,
    };
    let result = mjrs::rollout::run(&m, batch, true).unwrap();
    let mut data = OwnedData::new(&m).unwrap();
    let mut d = data.view();
    let mut state = vec![0.0; result.nstate];
    for t in 0..25 {
        mjrs::control::sine(&m, &mut d);
        mjrs_core::step(&m, &mut d).unwrap();
        mjrs_core::get_state(&m, &d, &mut state, STATE_FULLPHYSICS).unwrap();
        let row = &result.state[t * result.nstate..(t + 1) * result.nstate];
        assert_eq!(same_bits(row, &state), None, "step {t}");
    }
    let last =
        |r: usize| &result.state[(r * 25 + 24) * result.nstate..(r * 25 + 25) * result.nstate];
    assert_ne!(last(0), last(1), "rollouts differ");
}

#[test]
fn cli_batch_refuses_empty_batches_and_bad_thread_counts() {
    let mut owned = model();
    let m = owned.view();
    let batch = |nroll, nstep, threads| mjrs::rollout::Batch {
        nroll,
        nstep,
        threads,
        key: None,
    };
    for (b, says) in [
        (batch(0, 10, 1), "at least 1"),
        (batch(4, 0, 1), "at least 1"),
        (batch(4, 10, 0), "1 to 128 threads"),
        (
            mjrs::rollout::Batch {
                key: Some(3),
                ..batch(4, 10, 1)
            },
            "keyframe 3",
        ),
    ] {
        let e = mjrs::rollout::run(&m, b, false).err().unwrap();
        assert!(e.contains(says), "{e}");
    }
}
