//! Smooth-dynamics conformance: for every model of `tests/fixtures/smooth-models*.txt`, mjrs
//! matches MuJoCo 3.1.6 (`mjref data`, `mjref traj`; see `fixtures/generate-conformance.sh`):
//! * after 20 steps of the control law and a forward pass, every Data field the smooth pipeline
//!   computes agrees to 1e-10 (absolute below 1, relative above);
//! * over 1000 steps, qpos, qvel and act agree to 1e-9, sensordata to 1e-8;
//! * the f32 build stays within 1e-3 of the reference over 100 steps.

use mjrs_tests::harness::{Case, Suite};

const SMOOTH: Suite = Suite {
    prefix: "smooth-models",
    dir: "smooth",
};

/// Fields outside the smooth pipeline (contacts, constraint rows, islands, solver statistics)
/// and bookkeeping that differs by design (memory use).
fn smooth_field(name: &str, _: &Case) -> bool {
    const SKIP_PREFIX: &[&str] = &["efc_", "island_", "contact.", "solver", "maxuse_"];
    const SKIP: &[&str] = &[
        "dof_island",
        "dof_islandind",
        "tendon_efcadr",
        "parena",
        "pstack",
        "pbase",
        "contact",
    ];
    !SKIP.contains(&name) && !SKIP_PREFIX.iter().any(|p| name.starts_with(p))
}

#[test]
fn data_after_steps_matches_reference() {
    let failures = SMOOTH.data_failures(smooth_field, 1e-10);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn trajectories_match_reference_for_1000_steps() {
    let failures = SMOOTH.traj_failures(1e-9, 1e-8);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn f32_build_stays_close_for_100_steps() {
    let failures = SMOOTH.f32_failures(1e-3);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
