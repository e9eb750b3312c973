//! The fast build's accuracy in one step (issue 25 item 3a): from states of MuJoCo 3.1.6's own
//! trajectories (`fixtures/fast/NAME.json`, from `fixtures/generate-fast.py`: the bench models
//! after 0 and 150 steps of the control law), one `forward` of mjrs gives MuJoCo's accelerations
//! to within
//! * `SMOOTH` relative on `qacc_smooth`, the acceleration without constraints (and on `qacc`
//!   where no constraint row exists);
//! * the model's solver tolerance (`opt.tolerance`, at least `SMOOTH`) relative on `qacc` where
//!   constraint rows exist: the solvers stop at that tolerance on the cost's improvement;
//! * MuJoCo's number of constraint rows (the same contacts).
//!
//! Relative: the largest difference over the largest magnitude of MuJoCo's vector. The exact
//! build meets the bounds with zero differences (the conformance suites check it bit for bit);
//! the point is the fast build, `cargo test --release -p mjrs-tests --features fast --test fast`,
//! whose arithmetic differs (`mjrs_core::math::fast`).

use serde_json::Value;
use std::path::Path;

/// Relative bound on the accelerations without constraints.
const SMOOTH: f64 = 1e-10;

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// Largest `|a - b|` over the largest `|b|` (or the difference itself when `b` is zero).
fn relative(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    let diff = a
        .iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max);
    let scale = b.iter().map(|y| y.abs()).fold(0.0, f64::max);
    if scale > 0.0 {
        diff / scale
    } else {
        diff
    }
}

#[test]
fn one_forward_agrees_with_mujoco() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = mjrs_tests::fixtures().join("fast");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    names.sort();
    assert!(
        names.len() >= 18,
        "{} fixtures in {}",
        names.len(),
        dir.display()
    );
    let mut failures = Vec::new();
    println!("fast build: {}", cfg!(feature = "fast"));
    println!(
        "{:<24} step nefc active  qacc_smooth rel  qacc rel",
        "model"
    );
    for path in names {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let fixture: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let xml = fixture["xml"].as_str().unwrap();
        let mut owned = mjrs_xml::load_xml(root.join(xml), None)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .model;
        let m = owned.view();
        let mut data = mjrs_std::OwnedData::new(&m).unwrap();
        let mut d = data.view();
        for state in fixture["states"].as_array().unwrap() {
            d.time = state["time"].as_f64().unwrap();
            d.qpos.copy_from_slice(&floats(&state["qpos"]));
            d.qvel.copy_from_slice(&floats(&state["qvel"]));
            d.act.copy_from_slice(&floats(&state["act"]));
            d.qacc_warmstart
                .copy_from_slice(&floats(&state["qacc_warmstart"]));
            mjrs::control::sine(&m, &mut d);
            mjrs_core::forward(&m, &mut d).unwrap_or_else(|e| panic!("{name}: {e}"));
            let step = state["step"].as_u64().unwrap();
            let (nefc, nactive) = (
                state["nefc"].as_u64().unwrap(),
                state["nactive"].as_u64().unwrap(),
            );
            let smooth = relative(d.qacc_smooth, &floats(&state["qacc_smooth"]));
            let full = relative(d.qacc, &floats(&state["qacc"]));
            println!("{name:<24} {step:>4} {nefc:>4} {nactive:>6}  {smooth:>15.1e}  {full:>8.1e}");
            // the same contacts and rows: the fast build's own broad phase for a few bodies
            // (`collision::all_pairs`) may test other body pairs, never find other contacts
            if d.nefc as u64 != nefc {
                failures.push(format!(
                    "{name} step {step}: {} constraint rows, MuJoCo {nefc}",
                    d.nefc
                ));
            }
            let tolerance = fixture["tolerance"].as_f64().unwrap();
            let bound = if nefc == 0 {
                SMOOTH
            } else {
                tolerance.max(SMOOTH)
            };
            if smooth.is_nan() || smooth > SMOOTH {
                failures.push(format!(
                    "{name} step {step}: qacc_smooth {smooth:e} > {SMOOTH:e}"
                ));
            }
            if full.is_nan() || full > bound {
                failures.push(format!(
                    "{name} step {step} ({nefc} rows): qacc {full:e} > {bound:e}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Four overlapping spheres on free bodies, without gravity: body `a` has two geoms with
/// different masks, `d` matches nobody. `masks` gives each geom's `(contype, conaffinity)`.
fn overlapping_spheres(masks: [(i32, i32); 5]) -> String {
    let geom = |name: &str, pos: &str, (t, a): (i32, i32)| {
        format!(
            r#"<geom name="{name}" type="sphere" size=".2" pos="{pos}" contype="{t}" conaffinity="{a}"/>"#
        )
    };
    let body = |name: &str, x: f64, geoms: String| {
        format!(r#"<body name="{name}" pos="{x} 0 0"><freejoint/>{geoms}</body>"#)
    };
    format!(
        r#"<mujoco><option gravity="0 0 0"/><worldbody>{}{}{}{}</worldbody></mujoco>"#,
        body(
            "a",
            0.0,
            geom("a1", "0 0 0", masks[0]) + &geom("a2", "0 .02 0", masks[1])
        ),
        body("b", 0.05, geom("b", "0 0 0", masks[2])),
        body("c", 0.1, geom("c", "0 0 0", masks[3])),
        body("d", 0.15, geom("d", "0 0 0", masks[4])),
    )
}

/// The geom pairs (by name) in contact after one `forward`.
fn contact_pairs(xml: &str) -> Vec<(String, String)> {
    let mut owned = mjrs_xml::compile_str(xml, "spheres.xml", ".", None)
        .unwrap()
        .model;
    let m = owned.view();
    let mut data = mjrs_std::OwnedData::new(&m).unwrap();
    let mut d = data.view();
    mjrs_core::forward(&m, &mut d).unwrap();
    let name =
        |g: i32| mjrs_core::name::id2name(&m, mjrs_core::types::OBJ_GEOM, g as usize).unwrap();
    d.arena.arrays().contact[..d.ncon]
        .iter()
        .map(|c| (name(c.geom[0]).to_string(), name(c.geom[1]).to_string()))
        .collect()
}

/// Every build finds the contacts that contype/conaffinity allow between bodies, and only
/// those: the fast build's broad phase for a few bodies tests the bodies' masks before their
/// boxes, and skips the boxes when no two bodies' masks match.
#[test]
fn contype_and_conaffinity_pick_the_body_pairs() {
    let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
    // a1-b by a1's contype and b's conaffinity, a2-c by c's contype and a2's conaffinity
    let mixed = overlapping_spheres([(1, 0), (0, 4), (2, 1), (4, 0), (8, 8)]);
    assert_eq!(contact_pairs(&mixed), [pair("a1", "b"), pair("a2", "c")]);
    // every contype without a conaffinity to match: no contacts
    let none = overlapping_spheres([(1, 0), (1, 0), (1, 0), (1, 0), (1, 0)]);
    assert_eq!(contact_pairs(&none), Vec::<(String, String)>::new());
    // every geom with every other: the six body pairs of four bodies (a's two geoms each)
    let all = overlapping_spheres([(1, 1); 5]);
    assert_eq!(contact_pairs(&all).len(), 9);
}

/// Every build finds a sphere's contact with a floor exactly when the sphere is within the
/// larger of the two margins and their contype and conaffinity match: the fast build's broad
/// phase leaves out a lone plane's pairs by the narrow phase's own tests.
#[test]
fn a_floor_touches_the_spheres_within_the_margin() {
    // (name, gap above the floor, margin, contype and conaffinity); the floor's margin is .01
    let spheres = [
        ("own_margin", 0.005, 0.01, 1),
        ("floor_margin", 0.005, 0.0, 1),
        ("too_high", 0.02, 0.01, 1),
        ("other_mask", 0.005, 0.01, 2),
    ];
    let bodies: String = spheres
        .iter()
        .enumerate()
        .map(|(i, (name, gap, margin, mask))| {
            format!(
                r#"<body pos="{i} 0 {}"><freejoint/><geom name="{name}" type="sphere" size=".1" margin="{margin}" contype="{mask}" conaffinity="{mask}"/></body>"#,
                0.1 + gap
            )
        })
        .collect();
    let xml = format!(
        r#"<mujoco><option gravity="0 0 0"/><worldbody><geom name="floor" type="plane" size="10 10 1" margin=".01"/>{bodies}</worldbody></mujoco>"#
    );
    let pair = |b: &str| ("floor".to_string(), b.to_string());
    assert_eq!(
        contact_pairs(&xml),
        [pair("own_margin"), pair("floor_margin")]
    );
}
