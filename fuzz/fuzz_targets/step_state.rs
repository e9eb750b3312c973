//! Arbitrary states and options on a fixed set of models (every joint, constraint, actuator
//! and solver kind): positions, velocities, activations, controls, applied forces, mocap
//! poses and options, including NaN, infinities and huge values; then forward, steps, inverse
//! dynamics and finite-difference transition matrices, under the invariants of
//! `mjrs_fuzz::check_data`.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use mjrs_alloc::OwnedData;
use mjrs_fuzz::{check_data, models, run_steps, special, warnings};

#[derive(Arbitrary, Debug)]
struct Input {
    model: u8,
    values: Vec<(u8, f64)>,
    integrator: u8,
    solver: u8,
    cone: u8,
    jacobian: u8,
    iterations: u8,
    timestep: (u8, f64),
    tolerance: (u8, f64),
    disable: u16,
    enable: u8,
    steps: u8,
    derivatives: bool,
}

fuzz_target!(|input: Input| {
    let owned = &models()[usize::from(input.model) % models().len()];
    let mut owned = owned.try_clone().expect("clone of a fixed model");
    let mut m = owned.view();
    m.opt.integrator = i32::from(input.integrator % 4);
    m.opt.solver = i32::from(input.solver % 3);
    m.opt.cone = i32::from(input.cone % 2);
    m.opt.jacobian = i32::from(input.jacobian % 3);
    m.opt.iterations = i32::from(input.iterations % 60);
    m.opt.timestep = special(input.timestep.0, input.timestep.1.abs().min(0.1));
    m.opt.tolerance = special(input.tolerance.0, input.tolerance.1);
    m.opt.disableflags = i32::from(input.disable) & ((1 << 15) - 1);
    m.opt.enableflags = i32::from(input.enable) & ((1 << 6) - 1);
    let Ok(mut data) = OwnedData::new(&m) else {
        return;
    };
    let mut d = data.view();
    let mut values = input.values.iter().map(|&(s, x)| special(s, x)).cycle();
    if !input.values.is_empty() {
        let mut fill = |xs: &mut [f64]| {
            xs.iter_mut()
                .for_each(|x| *x = values.next().unwrap_or(0.0))
        };
        fill(d.qpos);
        fill(d.qvel);
        fill(d.act);
        fill(d.ctrl);
        fill(d.qfrc_applied);
        fill(d.xfrc_applied);
        fill(d.mocap_pos);
        fill(d.mocap_quat);
    }
    // RK4 evaluates the model four times a step: fewer steps keep every input's cost alike
    // (the 72-dof convex pile with 90 elliptic contacts and 59 Newton iterations took 20 s of
    // instrumented time at 4 RK4 steps, a timeout that was work, not a hang)
    let steps = if m.opt.integrator == mjrs_core::types::INT_RK4 {
        input.steps % 3
    } else {
        input.steps % 8
    };
    run_steps(&m, &mut d, usize::from(steps));
    let before = warnings(&d);
    let _ = mjrs_core::inverse(&m, &mut d);
    check_data(&m, &d, &before);
    if input.derivatives && m.nv <= 12 {
        let ndx = 2 * m.nv + m.na;
        let (mut a, mut b) = (vec![0.0; ndx * ndx], vec![0.0; ndx * m.nu]);
        let before = warnings(&d);
        let _ = mjrs_core::derivative_fd::transition_fd(
            &m,
            &mut d,
            1e-6,
            false,
            Some(&mut a),
            Some(&mut b),
            None,
            None,
        );
        check_data(&m, &d, &before);
    }
});
