//! Convex collisions (`collision::convex`: `mjc_Convex`, `mjc_PlaneConvex`,
//! `mjc_ConvexHField`) against MuJoCo 3.1.6, pair by pair.
//!
//! `fixtures/convex/NAME.json` (made by `fixtures/convex/generate.sh` from
//! `models/convex_*.xml`) holds configurations of free bodies and the contacts MuJoCo's
//! `mj_fwdPosition` found there for the pairs its collision table sends to the convex
//! functions. Here every such pair that passes the static filters (different bodies, contype
//! and conaffinity) is run through the mjrs function after the kinematics; each pair must give
//! as many contacts as the reference, with the same distance, position and normal (compared in
//! position order: the driver's sort may reorder a pair's contacts). The contact frame is
//! completed with `make_frame`, as MuJoCo's driver does, before comparing.

use mjrs_core::types::*;
use mjrs_tests::fixtures;
use serde_json::Value;
use std::collections::BTreeMap;

/// A geom pair, in the driver's order (increasing type).
type Pair = (usize, usize);

/// The contacts of one configuration, by pair.
type ByPair = BTreeMap<Pair, Vec<Found>>;

/// One contact as compared: geom pair, dist, pos, normal.
#[derive(Clone, Debug)]
struct Found {
    geoms: Pair,
    dist: f64,
    pos: [f64; 3],
    normal: [f64; 3],
}

/// Largest differences of one model, per field.
#[derive(Default, Debug)]
struct Diffs {
    contacts: usize,
    dist: f64,
    pos: f64,
    normal: f64,
}

fn arr3(v: &[Value]) -> [f64; 3] {
    [0, 1, 2].map(|i| v[i].as_f64().unwrap())
}

/// The reference contacts of one configuration, grouped by pair.
fn reference(contacts: &Value) -> ByPair {
    let mut out = ByPair::new();
    for c in contacts.as_array().unwrap() {
        let c = c.as_array().unwrap();
        let geoms = (
            c[0].as_u64().unwrap() as usize,
            c[1].as_u64().unwrap() as usize,
        );
        out.entry(geoms).or_default().push(Found {
            geoms,
            dist: c[2].as_f64().unwrap(),
            pos: arr3(&c[3..6]),
            normal: arr3(&c[6..9]),
        });
    }
    out
}

/// Whether MuJoCo's collision table sends the type-ordered pair to a convex function, and
/// which: 0 `plane_convex`, 1 `convex_hfield`, 2 `convex`.
fn collider(t1: i32, t2: i32) -> Option<u8> {
    match (t1, t2) {
        (GEOM_PLANE, GEOM_ELLIPSOID | GEOM_MESH) => Some(0),
        (GEOM_HFIELD, t) if t >= GEOM_SPHERE => Some(1),
        (GEOM_SPHERE, GEOM_ELLIPSOID | GEOM_MESH)
        | (GEOM_CAPSULE, GEOM_ELLIPSOID | GEOM_CYLINDER | GEOM_MESH)
        | (GEOM_BOX, GEOM_MESH)
        | (GEOM_MESH, GEOM_MESH) => Some(2),
        (GEOM_ELLIPSOID | GEOM_CYLINDER, t) if t >= t1 && t <= GEOM_MESH => Some(2),
        _ => None,
    }
}

/// Runs every pair the driver would hand to a convex function (different bodies, contype and
/// conaffinity, type order) with the core crate `$core` (`mjrs_core` or `mjrs_core_f32`) for
/// each configuration of `$qpos`; contacts by pair, per configuration.
macro_rules! run_pairs {
    ($core:ident, $blob:expr, $qpos:expr) => {{
        use $core::collision::convex::{convex, convex_hfield, plane_convex};
        use $core::{data::Contact, math::spatial::make_frame, mjb, smooth, Data, Real};
        let blob: &[u8] = $blob;
        let mut mbuf = vec![0u8; mjb::read_header(blob).unwrap().model_bytes().unwrap()];
        let m = mjb::load(blob, &mut mbuf).unwrap();
        let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).unwrap()];
        let mut d = Data::new(&m, &mut dbuf).unwrap();
        let mut pairs = vec![];
        for a in 0..m.ngeom {
            for b in a + 1..m.ngeom {
                let (ba, bb) = (m.geom_bodyid[a] as usize, m.geom_bodyid[b] as usize);
                let compatible = m.geom_contype[a] & m.geom_conaffinity[b] != 0
                    || m.geom_contype[b] & m.geom_conaffinity[a] != 0;
                if !compatible || m.body_weldid[ba] == m.body_weldid[bb] {
                    continue;
                }
                let (g1, g2) = if m.geom_type[a] > m.geom_type[b] {
                    (b, a)
                } else {
                    (a, b)
                };
                if let Some(f) = collider(m.geom_type[g1], m.geom_type[g2]) {
                    pairs.push((g1, g2, f));
                }
            }
        }
        let mut buf = [Contact::default(); MAXCONPAIR];
        let mut all = vec![];
        for qpos in $qpos {
            for (q, x) in d.qpos.iter_mut().zip(qpos) {
                *q = *x as Real;
            }
            smooth::kinematics(&m, &mut d);
            let mut out = ByPair::new();
            for &(g1, g2, f) in &pairs {
                let margin = m.geom_margin[g1].max(m.geom_margin[g2]);
                let f = [plane_convex, convex_hfield, convex][f as usize];
                let n = f(&m, &d, &mut buf, g1, g2, margin).unwrap();
                for c in &buf[..n] {
                    let mut frame = c.frame;
                    make_frame(&mut frame);
                    let wide = |v: &[Real]| [0, 1, 2].map(|i| f64::from(v[i]));
                    out.entry((g1, g2)).or_default().push(Found {
                        geoms: (g1, g2),
                        dist: f64::from(c.dist),
                        pos: wide(&c.pos),
                        normal: wide(&frame),
                    });
                }
            }
            all.push(out);
        }
        all
    }};
}

fn max_abs(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| if x == y { 0.0 } else { (x - y).abs() })
        .fold(0.0, f64::max)
}

/// A fixture: the MJB blob and, per configuration, qpos and the reference contacts by pair.
type Fixture = (Vec<u8>, Vec<(Vec<f64>, ByPair)>);

fn load_fixture(name: &str) -> Fixture {
    let dir = fixtures().join("convex");
    let blob = std::fs::read(dir.join(format!("{name}.mjb"))).unwrap();
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap())
            .unwrap();
    let configs = json["configs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|config| {
            let qpos = config["qpos"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect();
            (qpos, reference(&config["contacts"]))
        })
        .collect();
    (blob, configs)
}

/// Contacts sorted by position: a pair's contacts keep their order unless the driver's
/// (unstable) sort of a multi-geom body pair moved them.
fn by_position(v: &[Found]) -> Vec<Found> {
    let mut v = v.to_vec();
    v.sort_by(|a, b| {
        (a.pos.iter().zip(&b.pos))
            .map(|(x, y)| x.total_cmp(y))
            .find(|o| o.is_ne())
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    v
}

/// Compares our contacts with the reference's: the largest differences over the pairs with
/// equal counts, and the pairs whose counts differ.
fn compare(name: &str, fixture: &Fixture, ours: &[ByPair]) -> (Diffs, Vec<String>) {
    let mut diffs = Diffs::default();
    let mut problems = vec![];
    for (k, ((_, expected), got)) in fixture.1.iter().zip(ours).enumerate() {
        let pairs: std::collections::BTreeSet<_> = expected.keys().chain(got.keys()).collect();
        for pair in pairs {
            let e = by_position(expected.get(pair).map_or(&[][..], |v| v));
            let g = by_position(got.get(pair).map_or(&[][..], |v| v));
            if e.len() != g.len() {
                problems.push(format!(
                    "{name} config {k} pair {pair:?}: {} reference contacts, {} ours",
                    e.len(),
                    g.len()
                ));
                continue;
            }
            for (e, g) in e.iter().zip(&g) {
                assert_eq!(e.geoms, g.geoms);
                diffs.contacts += 1;
                diffs.dist = diffs.dist.max(max_abs(&[e.dist], &[g.dist]));
                diffs.pos = diffs.pos.max(max_abs(&e.pos, &g.pos));
                diffs.normal = diffs.normal.max(max_abs(&e.normal, &g.normal));
            }
        }
    }
    (diffs, problems)
}

fn compare_fixture(name: &str) -> (Diffs, Vec<String>) {
    let fixture = load_fixture(name);
    let ours = run_pairs!(mjrs_core, &fixture.0, fixture.1.iter().map(|c| &c.0));
    compare(name, &fixture, &ours)
}

fn check(name: &str) {
    let (diffs, problems) = compare_fixture(name);
    println!("{name}: {diffs:?}");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(diffs.contacts > 0, "{name}: no contacts compared");
    let worst = diffs.dist.max(diffs.pos).max(diffs.normal);
    assert!(worst <= 1e-12, "{name}: {diffs:?}");
}

#[test]
fn convex_pairs_match_reference() {
    check("convex_pairs");
}

#[test]
fn convex_pairs_multiccd_match_reference() {
    check("convex_pairs_multiccd");
}

#[test]
fn meshes_without_hull_graph_match_reference() {
    check("convex_nograph");
}

#[test]
fn height_field_matches_reference() {
    check("convex_hfield");
}

/// MuJoCo's own convex-collision test models (`test/engine/testdata/collision_convex`),
/// simulated into resting contacts by the reference.
#[test]
fn mujoco_test_models_match_reference() {
    for name in [
        "convex_capsule_mesh",
        "convex_cylinder_box",
        "convex_long_box",
        "convex_stacked_boxes",
        "convex_frameless_hfield",
        "convex_multiple_objects",
    ] {
        check(name);
    }
}

/// How two runs over the same configurations differ at their deepest contacts.
struct Deepest {
    /// Pairs in contact in both runs.
    common: usize,
    /// (configuration, pair) in contact in one run only, unless the pair merely touches
    /// (`|dist| <= 1e-6`: f32 cannot place exactly touching geoms).
    unmatched: Vec<(usize, Pair)>,
    /// Largest difference of a common pair's deepest contact distance.
    worst: f64,
}

fn deepest_differences(reference: &[ByPair], ours: &[ByPair]) -> Deepest {
    let deepest = |v: &[Found]| v.iter().map(|c| c.dist).fold(f64::INFINITY, f64::min);
    let (mut common, mut unmatched, mut worst) = (0, vec![], 0.0f64);
    for (k, (e, g)) in reference.iter().zip(ours).enumerate() {
        for pair in e.keys().chain(g.keys()) {
            match (e.get(pair), g.get(pair)) {
                (Some(e), Some(g)) => {
                    common += 1;
                    worst = worst.max((deepest(e) - deepest(g)).abs());
                }
                (Some(v), None) | (None, Some(v)) if deepest(v).abs() > 1e-6 => {
                    unmatched.push((k, *pair))
                }
                _ => {}
            }
        }
    }
    Deepest {
        common: common / 2,
        unmatched,
        worst,
    }
}

/// The f32 build (same source, `Real = f32`). Bit-for-bit agreement is not expected: MPR's
/// answer for a deep penetration depends on rounding (in f64, scaling qpos by 1 ± 1e-7 moves
/// such depths by up to 6e-2 and turns normals freely), and multi-CCD's extra contacts come
/// and go. What holds: the same pairs touch, resting contacts are as deep as the reference's
/// to 1e-6, deep ones to 2e-2.
#[test]
fn f32_build_finds_the_same_contacts() {
    for (name, tol) in [
        ("convex_pairs", 2e-2),
        ("convex_pairs_multiccd", 2e-2),
        ("convex_nograph", 2e-2),
        ("convex_hfield", 2e-2),
        ("convex_capsule_mesh", 1e-6),
        ("convex_cylinder_box", 1e-6),
        ("convex_long_box", 1e-6),
        ("convex_stacked_boxes", 1e-6),
        ("convex_frameless_hfield", 1e-6),
        ("convex_multiple_objects", 1e-6),
    ] {
        let fixture = load_fixture(name);
        let ours = run_pairs!(mjrs_core_f32, &fixture.0, fixture.1.iter().map(|c| &c.0));
        let reference: Vec<_> = fixture.1.iter().map(|c| c.1.clone()).collect();
        let Deepest {
            common,
            unmatched,
            worst,
        } = deepest_differences(&reference, &ours);
        println!("{name} f32: {common} pairs, deepest contacts differ by {worst:e}");
        assert!(
            unmatched.is_empty(),
            "{name}: pairs touching in one build only: {unmatched:?}"
        );
        assert!(worst <= tol, "{name}: deepest contacts differ by {worst:e}");
    }
}

/// NaN, huge and coincident poses, and MPR settings at their extremes: every pair returns
/// (no panic, no endless loop) in both builds.
#[test]
fn bad_poses_and_settings_end() {
    for name in ["convex_pairs_multiccd", "convex_nograph", "convex_hfield"] {
        let (blob, configs) = load_fixture(name);
        let nq = configs[0].0.len();
        let poses: Vec<Vec<f64>> = [f64::NAN, 1e30, -1e300, 0.0, f64::INFINITY]
            .iter()
            .map(|&x| (0..nq).map(|i| if i % 7 == 3 { 1.0 } else { x }).collect())
            .collect();
        run_pairs!(mjrs_core, &blob, poses.iter());
        run_pairs!(mjrs_core_f32, &blob, poses.iter());
        for (tolerance, iterations) in [(0.0, 1000), (-1.0, 0), (f64::NAN, 100)] {
            let patched = patch_mpr(&blob, tolerance, iterations);
            run_pairs!(mjrs_core, &patched, configs.iter().map(|c| &c.0));
        }
    }
}

/// The MJB blob with `opt.mpr_tolerance` and `opt.mpr_iterations` replaced.
fn patch_mpr(blob: &[u8], tolerance: f64, iterations: i32) -> Vec<u8> {
    use mjrs_core::mjb;
    let mut mbuf = vec![0u8; mjb::read_header(blob).unwrap().model_bytes().unwrap()];
    let mut m = mjb::load(blob, &mut mbuf).unwrap();
    m.opt.mpr_tolerance = tolerance;
    m.opt.mpr_iterations = iterations;
    let mut out = vec![0u8; mjb::save_size(&m, 8)];
    mjb::save(&m, &mut out, 8).unwrap();
    out
}
