//! Composite objects (`xml/src/composite`, MJCF `composite`) compiled by mjrs and simulated:
//! * the models of `fixtures/composite-models.txt` (MuJoCo's composite and cable models and
//!   focused ones), compiled by mjrs from their MJCF, run MuJoCo's 200 steps of the control
//!   law bit for bit (time, qpos, qvel, act, sensordata at every recorded step; the cables run
//!   the `mujoco.elasticity.cable` plugin);
//! * the expansion writes back as plain MJCF (`mj_saveLastXML`): no `composite` is left and
//!   the written text compiles to the same model.
//!
//! Field-by-field compilation (and MuJoCo's error texts) are in `compile.rs`, whose corpus holds
//! these models and the composite error cases; the written-model round trip of every corpus
//! model is in `save_xml.rs`.

use mjrs_tests::harness::{max_diff, Record, Suite};

const COMPOSITES: Suite = Suite {
    prefix: "composite-models",
    dir: "composite",
};

/// The XML path of each manifest row.
fn models() -> Vec<(String, std::path::PathBuf)> {
    let text =
        std::fs::read_to_string(mjrs_tests::fixtures().join("composite-models.txt")).unwrap();
    let root = mjrs_tests::fixtures().join("../models");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let c: Vec<&str> = l.split_whitespace().collect();
            (c[0].to_string(), root.join(c[1]))
        })
        .collect()
}

#[test]
fn trajectories_of_compiled_composites_are_bit_for_bit() {
    mjrs_core::plugin::register_first_party();
    let mut failures = Vec::new();
    let mut values = 0;
    let cases = models();
    assert!(cases.len() >= 10, "only {} models", cases.len());
    for (name, xml) in cases {
        let mut c = mjrs_xml::load_xml(&xml, None).unwrap_or_else(|e| panic!("{name}: {e}"));
        let blob = c.model.to_mjb(8).unwrap();
        let (every, time, [qpos, qvel, act, sensordata]) = COMPOSITES.reference_traj(&name);
        let steps = every * time.len();
        let (run, ()) = mjrs_tests::simulate!(mjrs_core, blob, None::<i32>, steps, |m, d| ());
        let rec: Vec<&Record> = run.iter().skip(every - 1).step_by(every).collect();
        let pick =
            |f: fn(&Record) -> Vec<f64>| -> Vec<Vec<f64>> { rec.iter().map(|r| f(r)).collect() };
        let times: Vec<Vec<f64>> = time.iter().map(|&t| vec![t]).collect();
        let fields = [
            ("time", pick(|r| vec![r.0]), &times),
            ("qpos", pick(|r| r.1.clone()), &qpos),
            ("qvel", pick(|r| r.2.clone()), &qvel),
            ("act", pick(|r| r.3.clone()), &act),
            ("sensordata", pick(|r| r.4.clone()), &sensordata),
        ];
        for (field, ours, theirs) in fields {
            assert_eq!(ours.len(), theirs.len(), "{name}: {field} records");
            values += theirs.iter().map(Vec::len).sum::<usize>();
            let d = max_diff(&ours, theirs);
            if d.is_nan() || d != 0.0 {
                failures.push(format!("{name}: {field} differs by {d:e}"));
            }
        }
        println!("{name:<28} {steps} steps, nbody {}", c.model.view().nbody);
    }
    println!("{values} recorded values bit for bit");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The written model has plain elements only and compiles to the same model.
#[test]
fn written_composites_are_plain_mjcf() {
    for (name, xml) in models() {
        let text = std::fs::read_to_string(&xml).unwrap();
        let file = xml.to_string_lossy().into_owned();
        let dir = mjrs_xml::reader::dom::resource_dir(&file).to_string();
        let (spec, _) = mjrs_xml::parse_str(&text, &file, &dir, None).unwrap();
        let written = mjrs_xml::writer::write_xml(&spec).unwrap();
        assert!(!written.contains("<composite"), "{name}: composite written");
        let mut a = mjrs_xml::compile_str(&text, &file, &dir, None).unwrap();
        let mut b = mjrs_xml::compile_str(&written, &file, &dir, None)
            .unwrap_or_else(|e| panic!("{name}: written text: {e}"));
        let (diffs, n) = mjrs_tests::model_diff::differences(&a.model.view(), &b.model.view());
        assert!(n > 400, "{name}: {n} fields");
        assert!(
            diffs.is_empty(),
            "{name}: {:?}",
            diffs.iter().map(|d| &d.name).collect::<Vec<_>>()
        );
    }
}

/// Sizes MuJoCo would try to allocate (or overflow) are refused with a clear message, fast;
/// face indices outside the vertices (MuJoCo 3.1.6 corrupts its heap on `face="0 1 2"`, as
/// faces are 1-based) and unknown curve shapes are errors, never panics.
#[test]
fn hostile_composites_are_refused() {
    let cases = [
        (
            r#"<composite type="particle" count="100000 100000 1" spacing="1"/>"#,
            "composite of more than",
        ),
        (
            r#"<composite type="grid" count="2147483647 2147483647" spacing="1"/>"#,
            "composite of more than",
        ),
        (
            r#"<composite type="grid" count="5 5" spacing="1"><skin subgrid="2000000000"/></composite>"#,
            "skin subgrid of more than",
        ),
        (
            r#"<composite type="particle" vertex="0 0 0 1 0 0 0 1 0" face="1 2 9"/>"#,
            "face index out of range",
        ),
        (
            r#"<composite type="particle" vertex="0 0 0 1 0 0 0 1 0" face="0 1 2"/>"#,
            "face index out of range",
        ),
        (
            r#"<composite type="cable" count="4" curve="s bogus"><geom type="capsule" size=".1"/></composite>"#,
            "Invalid composite shape: -1",
        ),
    ];
    for (xml, expected) in cases {
        let text = format!("<mujoco><worldbody>{xml}</worldbody></mujoco>");
        let start = std::time::Instant::now();
        let err = match mjrs_xml::compile_str(&text, "hostile.xml", "", None) {
            Ok(_) => panic!("{xml}: compiles"),
            Err(e) => e.to_string(),
        };
        assert!(err.contains(expected), "{xml}: {err}");
        assert!(start.elapsed().as_secs() < 5, "{xml}: slow");
    }
}
