//! What the fuzz targets share: running a model they got (from MJB bytes, MJCF text or the
//! fixed model set) through the pipeline, and the invariants every run must keep besides "no
//! panic": errors are values; after a step the data keeps its model's sizes, its scratch stack
//! is back to empty and its warning counters never go down.

use mjrs_alloc::{OwnedData, OwnedModel};
use mjrs_core::{Data, Model};

/// Models bigger than this are not stepped (they are valid, but one step would cost more
/// than a fuzz iteration should): degrees of freedom, bodies, geoms, bytes of data.
pub const MAX_NV: usize = 64;
/// See [`MAX_NV`].
pub const MAX_NBODY: usize = 128;
/// See [`MAX_NV`].
pub const MAX_NGEOM: usize = 256;
/// See [`MAX_NV`].
pub const MAX_DATA_BYTES: usize = 16 << 20;

/// Whether `m` is small enough to step in a fuzz iteration.
pub fn small_enough(m: &Model) -> bool {
    m.nv <= MAX_NV
        && m.nbody <= MAX_NBODY
        && m.ngeom <= MAX_NGEOM
        && Data::bytes_needed(m.sizes()).is_ok_and(|b| b <= MAX_DATA_BYTES)
        // iteration caps are refused by the step itself; these keep a step cheap
        && m.opt.iterations <= 200
        && m.opt.ls_iterations <= 100
        && m.opt.noslip_iterations <= 100
}

/// The warning counters of `d`.
pub fn warnings(d: &Data) -> Vec<i32> {
    d.warning.iter().map(|w| w.number).collect()
}

/// What must hold after any pipeline call on `d`, whatever it returned.
pub fn check_data(m: &Model, d: &Data, before: &[i32]) {
    assert_eq!(d.sizes(), m.sizes(), "a step changed the data's sizes");
    assert_eq!(
        d.arena.state.pstack, 0,
        "the scratch stack is not empty after a call"
    );
    assert!(
        d.arena.state.parena <= d.arena.len(),
        "arena arrays beyond the arena"
    );
    // counters only grow, except that a bad position, velocity or acceleration resets the
    // data (every counter to zero) and counts itself, and the rest of the step counts on from
    // there, as MuJoCo does (checked against MuJoCo 3.1.6 on this target's findings)
    let now = warnings(d);
    let grew = now.iter().zip(before).all(|(n, b)| n >= b);
    let reset = now[WARN_BADQPOS..=WARN_BADQACC].iter().any(|&n| n > 0);
    assert!(
        grew || reset,
        "warning counters {before:?} -> {now:?} without a reset"
    );
}

/// Indices of the warnings that reset the data (`mjWARN_BADQPOS` .. `mjWARN_BADQACC`).
const WARN_BADQPOS: usize = 4;
const WARN_BADQACC: usize = 6;

/// Forward, then up to `steps` steps, checking the invariants after each call. Errors end
/// the run (they are values); returns how many steps were taken.
pub fn run_steps(m: &Model, d: &mut Data, steps: usize) -> usize {
    let before = warnings(d);
    let forward = mjrs_core::forward(m, d);
    check_data(m, d, &before);
    if forward.is_err() {
        return 0;
    }
    for k in 0..steps {
        let before = warnings(d);
        let r = mjrs_core::step(m, d);
        check_data(m, d, &before);
        if r.is_err() {
            return k;
        }
    }
    steps
}

/// Run a loaded model: fresh data, forward and `steps` steps, when it is small enough.
pub fn exercise(owned: &mut OwnedModel, steps: usize) {
    let m = owned.view();
    if !small_enough(&m) {
        return;
    }
    let Ok(mut data) = OwnedData::new(&m) else {
        return;
    };
    let mut d = data.view();
    run_steps(&m, &mut d, steps);
}

/// The fixed models of `step_state` and `ray`: every joint kind, equality, limits, friction
/// loss, tendons, contacts pyramidal and elliptic, muscles and user actuators, each solver,
/// sparse and dense Jacobians, flexes of each dimension (contacts, self-collision, internal
/// collisions, edge equality, stiffness and damping), a rope on height fields.
pub const MODELS: [(&str, &str); 14] = [
    (
        "chain_joints",
        include_str!("../../tests/models/chain_joints.xml"),
    ),
    (
        "kitchen_sink",
        include_str!("../../tests/models/kitchen_sink.xml"),
    ),
    (
        "collision_full",
        include_str!("../../tests/models/collision_full.xml"),
    ),
    (
        "rows_limits_sparse",
        include_str!("../../tests/models/rows_limits_sparse.xml"),
    ),
    (
        "rows_equality_chain_sparse_pgs",
        include_str!("../../tests/models/rows_equality_chain_sparse_pgs.xml"),
    ),
    (
        "rows_contacts_elliptic",
        include_str!("../../tests/models/rows_contacts_elliptic.xml"),
    ),
    (
        "rows_tendon_sparse_pgs",
        include_str!("../../tests/models/rows_tendon_sparse_pgs.xml"),
    ),
    (
        "island_newton_elliptic",
        include_str!("../../tests/models/island_newton_elliptic.xml"),
    ),
    (
        "island_cg_noslip",
        include_str!("../../tests/models/island_cg_noslip.xml"),
    ),
    (
        "convex_pairs",
        include_str!("../../tests/models/convex_pairs.xml"),
    ),
    (
        "implicit_muscle",
        include_str!("../../tests/models/implicit_muscle.xml"),
    ),
    (
        "user_actuators",
        include_str!("../../tests/models/user_actuators.xml"),
    ),
    (
        "flex_mix",
        include_str!("../../tests/models/flex_mix.xml"),
    ),
    (
        "hfield_rope",
        include_str!("../../tests/models/flex_collision/hfield_rope.xml"),
    ),
];

/// The fixed models, compiled once per process.
pub fn models() -> &'static [OwnedModel] {
    static MODELS_COMPILED: std::sync::OnceLock<Vec<OwnedModel>> = std::sync::OnceLock::new();
    MODELS_COMPILED.get_or_init(|| {
        MODELS
            .iter()
            .map(|(name, xml)| {
                mjrs_xml::compile_str(xml, name, "", None)
                    .unwrap_or_else(|e| panic!("fixed model {name}: {e}"))
                    .model
            })
            .collect()
    })
}

/// A value from fuzz input: finite numbers pass through; a few selectors give the values
/// that break numerics (NaN, infinities, huge, tiny).
pub fn special(selector: u8, x: f64) -> f64 {
    match selector % 16 {
        0 => f64::NAN,
        1 => f64::INFINITY,
        2 => f64::NEG_INFINITY,
        3 => 1e300,
        4 => -1e300,
        5 => f64::MIN_POSITIVE / 4.0,
        6 => 0.0,
        _ if x.is_finite() => x,
        _ => 0.5,
    }
}
