//! Iterative tolerances against the f32 build's resolution: the f32 build must not run its
//! iterations into their caps where the f64 build converges (issue 8: tolerances below
//! `f32::EPSILON` made every `eig3` call take all 500 rotations, and the solvers iterated on
//! rounding noise until `real::solver_tolerance` raised their tolerances in f32). Counts the
//! constraint solver's iterations over 300 steps of models with contacts, in both builds.

use mjrs_tests::{fixtures, CONTACT_SOLVER_MJBS};

/// Mean solver iterations per step over `steps` steps of the control law, for core `$core`.
macro_rules! mean_iterations {
    ($core:ident, $blob:expr, $steps:expr) => {{
        let steps: usize = $steps;
        let no_steps = 0;
        let (_, total) = mjrs_tests::simulate!($core, $blob, None, no_steps, |m, d| {
            let mut total = 0usize;
            for _ in 0..steps {
                $core::step(&m, d).unwrap();
                total += d.solver_niter[0] as usize;
            }
            total
        });
        total as f64 / steps as f64
    }};
}

#[test]
fn f32_solvers_converge_like_f64() {
    let mut report = Vec::new();
    let mut failures = Vec::new();
    for mjb in CONTACT_SOLVER_MJBS {
        let blob = std::fs::read(fixtures().join(mjb)).unwrap();
        let wide = mean_iterations!(mjrs_core, blob.clone(), 300);
        let narrow = mean_iterations!(mjrs_core_f32, blob, 300);
        report.push(format!(
            "{mjb}: f64 {wide:.1}, f32 {narrow:.1} iterations per step"
        ));
        // with the solvers' tolerances floored at 10 f32 epsilons the counts agree to a few
        // percent; without the floor hopper took 1.5 iterations per step against 0.9
        if narrow > 1.2 * wide + 0.3 {
            failures.push(format!("{mjb}: f32 {narrow:.1} vs f64 {wide:.1}"));
        }
    }
    println!("{}", report.join("\n"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Sum over `steps` steps of the bounding-volume nodes whose boxes passed the midphase's
/// overlap test (`bvh_active`), with core `$core`.
macro_rules! active_nodes {
    ($core:ident, $blob:expr, $steps:expr) => {{
        let steps: usize = $steps;
        let no_steps = 0;
        let (_, total) = mjrs_tests::simulate!($core, $blob, None, no_steps, |m, d| {
            let mut total = 0usize;
            for _ in 0..steps {
                $core::step(&m, d).unwrap();
                total += d.bvh_active.iter().filter(|&&a| a != 0).count();
            }
            total
        });
        total
    }};
}

/// A world body with a floor plane and border capsules: MuJoCo's box of its hierarchy is a
/// half-space 5e9 deep whose top (0.4) f32 could not resolve, so that the f32 build found every
/// body above the floor overlapping the world and walked the world's hierarchy (humanoid100: 4x
/// the box tests of f64). The f32 blob cuts that side (`mjb::save` with 4-byte reals, and
/// `mjb::load` of an 8-byte blob into the f32 core); the midphase now visits as many nodes in
/// both builds.
#[test]
fn f32_midphase_culls_like_f64() {
    let owned = mjrs_tests::compile_model("f32_world_bvh.xml");
    let m = owned.view();
    let blob = |bytes| {
        let mut out = vec![0u8; mjrs_core::mjb::save_size(&m, bytes)];
        let n = mjrs_core::mjb::save(&m, &mut out, bytes).unwrap();
        out.truncate(n);
        out
    };
    let wide = active_nodes!(mjrs_core, blob(8), 300);
    for bytes in [4, 8] {
        let narrow = active_nodes!(mjrs_core_f32, blob(bytes), 300);
        println!("f64 {wide}, f32 from a {bytes}-byte blob {narrow} active nodes in 300 steps");
        assert!(
            narrow as f64 <= 1.02 * wide as f64,
            "f32 ({bytes}-byte blob) {narrow} active nodes, f64 {wide}"
        );
    }
}
