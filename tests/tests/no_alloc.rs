//! `step` makes no heap allocation: a counting global allocator watches the stepping loop of
//! every smooth-dynamics fixture (its memory comes from the caller's buffers only).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Counts allocations made by the current thread while `WATCH` is set.
struct Counting;

thread_local! {
    static WATCH: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<usize> = const { Cell::new(0) };
}

fn note() {
    // try_with: the allocator may run while thread-locals are being torn down
    let _ = WATCH.try_with(|w| {
        if w.get() {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
        }
    });
}

// SAFETY: every call forwards to the system allocator unchanged.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Allocations made by `f` on this thread.
fn allocations(f: impl FnOnce()) -> usize {
    COUNT.with(|c| c.set(0));
    WATCH.with(|w| w.set(true));
    f();
    WATCH.with(|w| w.set(false));
    COUNT.with(|c| c.get())
}

/// The MJB files of fixture folder `dir`, sorted; there must be some.
fn mjb_files(dir: &str) -> Vec<std::path::PathBuf> {
    let dir = mjrs_tests::fixtures().join(dir);
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mjb"))
        .collect();
    names.sort();
    assert!(!names.is_empty(), "no MJB files in {}", dir.display());
    names
}

#[test]
fn step_does_not_allocate() {
    let names = mjb_files("smooth");
    for path in names {
        let blob = std::fs::read(&path).unwrap();
        let header = mjrs_core::mjb::read_header(&blob).unwrap();
        let mut mbuf = vec![0u8; header.model_bytes().unwrap()];
        let m = mjrs_core::mjb::load(&blob, &mut mbuf).unwrap();
        let mut dbuf = vec![0u8; mjrs_core::Data::bytes_needed(m.sizes()).unwrap()];
        let mut d = mjrs_core::Data::new(&m, &mut dbuf).unwrap();
        let mut result = Ok(());
        let n = allocations(|| {
            for _ in 0..50 {
                mjrs::control::sine(&m, &mut d);
                result = result.and(mjrs_core::step(&m, &mut d));
            }
        });
        // models with features mjrs refuses still must not allocate on the way to the error
        assert_eq!(
            n,
            0,
            "{}: {n} allocations in 50 steps ({result:?})",
            path.display()
        );
    }
}

/// Flex collisions (broad phase, midphase, self-collision by each mode, contact rows on flex
/// elements) allocate nothing either.
#[test]
fn flex_collision_step_does_not_allocate() {
    let mut stepped = 0;
    for path in mjb_files("flex_collision") {
        for mode in 0..5 {
            let blob = std::fs::read(&path).unwrap();
            let header = mjrs_core::mjb::read_header(&blob).unwrap();
            let mut mbuf = vec![0u8; header.model_bytes().unwrap()];
            let mut m = mjrs_core::mjb::load(&blob, &mut mbuf).unwrap();
            stepped += 1;
            m.flex_selfcollide.fill(mode);
            let mut dbuf = vec![0u8; mjrs_core::Data::bytes_needed(m.sizes()).unwrap()];
            let mut d = mjrs_core::Data::new(&m, &mut dbuf).unwrap();
            let mut result = Ok(());
            let n = allocations(|| {
                for _ in 0..60 {
                    result = result.and(mjrs_core::step(&m, &mut d));
                }
            });
            assert!(result.is_ok(), "{}: {result:?}", path.display());
            // a 1x1 height field has no cells: that case has no contacts in MuJoCo either
            let contactless = path.ends_with("hfield_rope1x1.mjb");
            assert!(d.ncon > 0 || contactless, "{}: no contacts", path.display());
            assert_eq!(n, 0, "{} mode {mode}: {n} allocations", path.display());
        }
    }
    assert!(stepped >= 30, "{stepped} runs");
}

/// A model of a fixture directory on fresh data: `f(m, d)`.
fn with_fixture(path: &std::path::Path, f: impl FnOnce(&mjrs_core::Model, &mut mjrs_core::Data)) {
    let blob = std::fs::read(path).unwrap();
    let header = mjrs_core::mjb::read_header(&blob).unwrap();
    let mut mbuf = vec![0u8; header.model_bytes().unwrap()];
    let m = mjrs_core::mjb::load(&blob, &mut mbuf).unwrap();
    let mut dbuf = vec![0u8; mjrs_core::Data::bytes_needed(m.sizes()).unwrap()];
    let mut d = mjrs_core::Data::new(&m, &mut dbuf).unwrap();
    f(&m, &mut d);
}

#[test]
fn inverse_does_not_allocate() {
    // the inverse-dynamics models: every cone, integrator, invdiscrete and the fwdinv step
    let names = mjb_files("inverse");
    for path in names {
        with_fixture(&path, |m, d| {
            let mut result = Ok(());
            let n = allocations(|| {
                for _ in 0..10 {
                    mjrs::control::sine(m, d);
                    result = result
                        .and(mjrs_core::step(m, d))
                        .and(mjrs_core::inverse(m, d))
                        .and(mjrs_core::compare_fwd_inv(m, d));
                }
            });
            assert!(result.is_ok(), "{}: {result:?}", path.display());
            assert_eq!(n, 0, "{}: {n} allocations", path.display());
        });
    }
}

#[test]
fn transition_fd_does_not_allocate() {
    let dir = mjrs_tests::fixtures().join("deriv");
    for name in ["deriv_free_ball", "kitchen_sink", "humanoid"] {
        with_fixture(&dir.join(format!("{name}.mjb")), |m, d| {
            let (nx, nu, ns) = (2 * m.nv + m.na, m.nu, m.nsensordata);
            let (mut a, mut b) = (vec![0.0; nx * nx], vec![0.0; nx * nu]);
            let (mut c, mut dd) = (vec![0.0; ns * nx], vec![0.0; ns * nu]);
            let mut result = Ok(());
            let n = allocations(|| {
                result = mjrs_core::transition_fd(
                    m,
                    d,
                    1e-6,
                    true,
                    Some(&mut a),
                    Some(&mut b),
                    Some(&mut c),
                    Some(&mut dd),
                );
            });
            assert_eq!(
                n, 0,
                "{name}: {n} allocations in transition_fd ({result:?})"
            );
            result.unwrap();
        });
    }
}

#[test]
fn inverse_fd_does_not_allocate() {
    let fixtures = mjrs_tests::fixtures();
    for mjb in ["deriv/implicit_humanoid.mjb", "inverse/sensor_frames.mjb"] {
        with_fixture(&fixtures.join(mjb), |m, d| {
            mjrs_core::forward(m, d).unwrap();
            let (nv, ns) = (m.nv, m.nsensordata);
            let mut f = [vec![0.0; nv * nv], vec![0.0; nv * nv], vec![0.0; nv * nv]];
            let mut s = [vec![0.0; nv * ns], vec![0.0; nv * ns], vec![0.0; nv * ns]];
            let mut dmdq = vec![0.0; nv * m.nM];
            let [dfdq, dfdv, dfda] = &mut f;
            let [dsdq, dsdv, dsda] = &mut s;
            let mut result = Ok(());
            let n = allocations(|| {
                let out = mjrs_core::InverseJacobians {
                    dfdq: Some(dfdq),
                    dfdv: Some(dfdv),
                    dfda: Some(dfda),
                    dsdq: Some(dsdq),
                    dsdv: Some(dsdv),
                    dsda: Some(dsda),
                    dmdq: Some(&mut dmdq),
                };
                result = mjrs_core::inverse_fd(m, d, 1e-6, true, out);
            });
            assert_eq!(n, 0, "{mjb}: {n} allocations in inverse_fd ({result:?})");
            result.unwrap();
        });
    }
}

#[test]
fn rollout_does_not_allocate() {
    use mjrs_core::rollout::{rollout, RolloutBuffers};
    use mjrs_core::types::{STATE_CTRL, STATE_FULLPHYSICS};
    let path = mjrs_tests::fixtures().join("rollout/rollout_arm.mjb");
    with_fixture(&path, |m, d| {
        let (nroll, nstep) = (3, 40);
        let nstate = mjrs_core::state_size(m, STATE_FULLPHYSICS).unwrap();
        let mut state0 = vec![0.0; nstate];
        mjrs_core::get_state(m, d, &mut state0, STATE_FULLPHYSICS).unwrap();
        let state0 = state0.repeat(nroll);
        let control = vec![0.5; nroll * nstep * m.nu];
        let mut state = vec![0.0; nroll * nstep * nstate];
        let mut sensordata = vec![0.0; nroll * nstep * m.nsensordata];
        let mut result = Ok(());
        let n = allocations(|| {
            let b = RolloutBuffers {
                state0: &state0,
                warmstart0: None,
                control: Some(&control),
                state: Some(&mut state),
                sensordata: Some(&mut sensordata),
            };
            result = rollout(m, d, nroll, nstep, STATE_CTRL, b);
        });
        result.unwrap();
        assert_eq!(n, 0, "{n} allocations in {} rollout steps", nroll * nstep);
    });
}

#[test]
fn plugin_models_step_without_allocating() {
    // the engine plugins' models (cable, pid, sdflib, ...): a plugin's compute has no heap
    // either (the mesh SDF's octree is built on the heap when the model is loaded, as the
    // desktop fronts register it)
    mjrs_alloc::register_first_party();
    let names = mjb_files("plugin");
    for path in names {
        with_fixture(&path, |m, d| {
            let mut result = Ok(());
            let n = allocations(|| {
                for _ in 0..50 {
                    mjrs::control::sine(m, d);
                    result = result.and(mjrs_core::step(m, d));
                }
            });
            assert!(result.is_ok(), "{}: {result:?}", path.display());
            assert_eq!(n, 0, "{}: {n} allocations in 50 steps", path.display());
        });
    }
}
