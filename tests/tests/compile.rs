//! MJCF compiler conformance: every model of `tests/fixtures/compile-models.txt` compiles with
//! mjrs to the model MuJoCo 3.1.6 compiles (`fixtures/compile/NAME.mjb`, from
//! `fixtures/generate-compile.sh`), field by field: sizes, options, visual settings, statistics
//! and every array, integers exactly and reals bit for bit.

use mjrs_alloc::OwnedModel;
use mjrs_tests::fixtures;
use mjrs_tests::model_diff::{differences, fields, Difference};
use std::path::{Path, PathBuf};

/// A model of the corpus.
struct Entry {
    name: String,
    path: PathBuf,
    note: String,
}

fn corpus() -> Vec<Entry> {
    let text = std::fs::read_to_string(fixtures().join("compile-models.txt")).unwrap();
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("models");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let c: Vec<&str> = l.split_whitespace().collect();
            Entry {
                name: c[0].to_string(),
                path: models.join(c[1]),
                note: c.get(2).unwrap_or(&"-").to_string(),
            }
        })
        .collect()
}

fn reference(name: &str) -> OwnedModel {
    let blob = std::fs::read(fixtures().join("compile").join(format!("{name}.mjb"))).unwrap();
    OwnedModel::from_mjb(&blob).unwrap()
}

/// Models mjrs does not compile like MuJoCo yet, with the reason.
const KNOWN: &[(&str, &str)] = &[];

/// The asset paths of a model (`paths` split at its zeros).
fn paths(m: &mjrs_core::Model) -> Vec<String> {
    m.paths
        .split(|&b| b == 0)
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect()
}

/// Asset paths found through an include carry the absolute directory of the checkout that made
/// the fixture; such fields are compared below `tests/models/` instead of byte for byte.
fn located_paths(
    reference: &mjrs_core::Model,
    ours: &mjrs_core::Model,
    diffs: &mut Vec<Difference>,
) {
    const ANCHOR: &str = "tests/models/";
    let (r, o) = (paths(reference), paths(ours));
    if !r.iter().any(|p| p.starts_with('/') && p.contains(ANCHOR)) {
        return;
    }
    let tail = |p: &String| p.find(ANCHOR).map_or(p.clone(), |i| p[i..].to_string());
    let (r, o): (Vec<String>, Vec<String>) =
        (r.iter().map(tail).collect(), o.iter().map(tail).collect());
    diffs.retain(|d| {
        !(d.name == "paths"
            || d.name == "npaths"
            || d.name == "nbuffer"
            || d.name.ends_with("_pathadr"))
    });
    if r != o {
        diffs.push(Difference {
            name: "paths".into(),
            what: format!("{o:?}, MuJoCo {r:?}"),
            rel: f64::INFINITY,
        });
    }
}

#[test]
fn compiled_models_match_mujoco() {
    let only = std::env::var("MJRS_COMPILE_ONLY").ok();
    let mut failures = Vec::new();
    let (mut nfields, mut nmatch, mut nmodels) = (0usize, 0usize, 0usize);
    for e in corpus() {
        if e.note == "error"
            || e.note == "unsupported"
            || only.as_deref().is_some_and(|o| o != e.name)
        {
            continue;
        }
        nmodels += 1;
        let mut ours = match mjrs_xml::load_xml(&e.path, None) {
            Ok(c) => c.model,
            Err(err) => {
                failures.push(format!("{}: {err}", e.name));
                continue;
            }
        };
        let mut reference = reference(&e.name);
        let (r, o) = (reference.view(), ours.view());
        let (mut diffs, n) = differences(&r, &o);
        located_paths(&r, &o, &mut diffs);
        nfields += n;
        nmatch += n - diffs.len();
        if !diffs.is_empty() {
            let list: Vec<String> = diffs
                .iter()
                .map(|d| format!("{} {} ({:.1e})", d.name, d.what, d.rel))
                .collect();
            failures.push(format!("{}: {}", e.name, list.join("; ")));
        }
    }
    println!("{nmodels} models, {nmatch}/{nfields} fields identical");
    let known = |f: &String| KNOWN.iter().any(|(n, _)| f.starts_with(&format!("{n}:")));
    let (expected, unexpected): (Vec<String>, Vec<String>) = failures.into_iter().partition(known);
    assert!(
        unexpected.is_empty(),
        "{} models differ:\n{}",
        unexpected.len(),
        unexpected.join("\n")
    );
    if only.is_none() {
        assert_eq!(
            expected.len(),
            KNOWN.len(),
            "a known failure now passes: update KNOWN\n{expected:?}"
        );
    }
}

#[test]
fn every_field_is_compared() {
    let mut m = reference("chain_joints");
    let f = fields(&m.view());
    // sizes, opt, stat, vis and all 376 arrays
    assert!(f.len() > 376 + 78 + 20);
    for name in [
        "paths",
        "names",
        "text_data",
        "vis.global.fovy",
        "opt.timestep",
        "stat.extent",
    ] {
        assert!(f.iter().any(|(n, _)| n == name), "{name}");
    }
}

/// A message's first line (with paths shown below `tests/models/`, as the fixtures keep them)
/// and the object and line of its location line, if any.
fn message_parts(text: &str) -> (String, Option<(String, String)>) {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let mut first = lines.next().unwrap_or_default().to_string();
    while let Some(i) = first.find("tests/models/") {
        let start = first[..i].rfind('\'').map_or(0, |q| q + 1);
        first.replace_range(start..i + "tests/models/".len(), "");
    }
    let loc = lines.next().map(|l| {
        // "Element 'geom', line 5" or "Element name 'x', id 3, line 5"
        let object = l.split(", line").next().unwrap_or_default().to_string();
        let line = l.split("line ").nth(1).unwrap_or_default();
        (
            object,
            line.chars().take_while(char::is_ascii_digit).collect(),
        )
    });
    (first, loc)
}

/// Does our location name the same object and line (MuJoCo's line, when it gives one)?
fn same_location(theirs: &Option<(String, String)>, ours: &Option<(String, String)>) -> bool {
    match (theirs, ours) {
        (None, _) => true,
        (Some((to, tl)), Some((oo, ol))) => to == oo && (tl.is_empty() || tl == ol),
        (Some(_), None) => false,
    }
}

/// Rejected models whose message mjrs words differently, with the reason.
const OTHER_MESSAGE: &[(&str, &str)] = &[
    (
        "mjrs_composite_bad_curve_missing",
        "MuJoCo stops in mju_error (\"Invalid composite shape: -1\"), not with an XML error",
    ),
    (
        "mjt_reader_IncludeSameFileTest",
        "MuJoCo reports line 0 for elements of an included file",
    ),
    (
        "mjrs_replicate_repeated_numeric",
        "MuJoCo 3.1.6 lets the error escape its reader: \"Caught an unknown exception!\"",
    ),
];

#[test]
fn rejected_models_fail_like_mujoco() {
    let mut problems = Vec::new();
    let mut same = 0;
    let entries: Vec<Entry> = corpus().into_iter().filter(|e| e.note == "error").collect();
    for e in &entries {
        let theirs = std::fs::read_to_string(
            fixtures()
                .join("compile")
                .join(format!("{}.error.txt", e.name)),
        )
        .unwrap();
        let ours = match mjrs_xml::load_xml(&e.path, None) {
            Ok(_) => {
                problems.push(format!("{}: compiles, MuJoCo says {theirs:?}", e.name));
                continue;
            }
            Err(err) => err.to_string(),
        };
        let (t, tl) = message_parts(&theirs);
        let (o, ol) = message_parts(&ours);
        if t == o && same_location(&tl, &ol) {
            same += 1;
        } else if !OTHER_MESSAGE.iter().any(|(n, _)| *n == e.name) {
            problems.push(format!(
                "{}:\n  ours   {ours:?}\n  MuJoCo {theirs:?}",
                e.name
            ));
        }
    }
    println!(
        "{same} of {} rejected models with MuJoCo's message",
        entries.len()
    );
    assert!(
        problems.is_empty(),
        "{} models:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// `opt.disableflags` bits by MuJoCo's flag names (the DISABLE column of the manifests).
fn disable_bits(names: &str) -> i32 {
    use mjrs_core::types::*;
    names
        .split(',')
        .filter(|n| !n.is_empty() && *n != "-")
        .map(|n| match n {
            "constraint" => DSBL_CONSTRAINT,
            "equality" => DSBL_EQUALITY,
            "frictionloss" => DSBL_FRICTIONLOSS,
            "limit" => DSBL_LIMIT,
            "contact" => DSBL_CONTACT,
            "passive" => DSBL_PASSIVE,
            "gravity" => DSBL_GRAVITY,
            "clampctrl" => DSBL_CLAMPCTRL,
            "warmstart" => DSBL_WARMSTART,
            "filterparent" => DSBL_FILTERPARENT,
            "actuation" => DSBL_ACTUATION,
            "refsafe" => DSBL_REFSAFE,
            "sensor" => DSBL_SENSOR,
            "midphase" => DSBL_MIDPHASE,
            "eulerdamp" => DSBL_EULERDAMP,
            other => panic!("unknown disable flag {other}"),
        })
        .fold(0, |a, b| a | b)
}

/// XML -> mjrs compiler -> mjrs stepping, against MuJoCo's own trajectories: for every model of
/// the smooth and constraint suites, the model mjrs compiles from the XML runs 1000 steps of the
/// control law exactly as MuJoCo ran the model it compiled (`fixtures/{smooth,constraint}/
/// NAME.traj.json`): time, qpos, qvel, act and sensordata identical at every record.
#[test]
fn compiled_models_step_like_mujoco() {
    use mjrs_tests::harness::{max_diff, Suite};
    let mut failures = Vec::new();
    let mut n = 0;
    for (prefix, dir) in [
        ("smooth-models", "smooth"),
        ("constraint-models", "constraint"),
    ] {
        let suite = Suite { prefix, dir };
        let mut manifests: Vec<PathBuf> = std::fs::read_dir(fixtures())
            .unwrap()
            .filter_map(|e| Some(e.ok()?.path()))
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with(prefix))
            })
            .collect();
        manifests.sort();
        for line in manifests.iter().flat_map(|p| {
            std::fs::read_to_string(p)
                .unwrap()
                .lines()
                .map(str::to_string)
                .collect::<Vec<_>>()
        }) {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let c: Vec<&str> = line.split_whitespace().collect();
            let (name, xml) = (c[0], c[1]);
            let key: Option<i32> = c.get(2).and_then(|k| k.parse().ok());
            let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("models")
                .join(xml);
            let mut model = match mjrs_xml::load_xml(&path, None) {
                Ok(c) => c.model,
                Err(e) => {
                    failures.push(format!("{name}: {e}"));
                    continue;
                }
            };
            model.view().opt.disableflags |= disable_bits(c.get(3).unwrap_or(&"-"));
            let blob = model.to_mjb(8).unwrap();
            let (every, time, [qpos, qvel, act, sensordata]) = suite.reference_traj(name);
            let (run, ()) = mjrs_tests::simulate!(mjrs_core, blob, key, 1000, |m, d| ());
            let rec: Vec<_> = run.iter().skip(every - 1).step_by(every).collect();
            let rows = |f: &dyn Fn(&mjrs_tests::harness::Record) -> Vec<f64>| -> Vec<Vec<f64>> {
                rec.iter().map(|r| f(r)).collect()
            };
            let times: Vec<Vec<f64>> = time.iter().map(|&t| vec![t]).collect();
            for (what, d) in [
                ("time", max_diff(&rows(&|r| vec![r.0]), &times)),
                ("qpos", max_diff(&rows(&|r| r.1.clone()), &qpos)),
                ("qvel", max_diff(&rows(&|r| r.2.clone()), &qvel)),
                ("act", max_diff(&rows(&|r| r.3.clone()), &act)),
                ("sensordata", max_diff(&rows(&|r| r.4.clone()), &sensordata)),
            ] {
                if d != 0.0 {
                    failures.push(format!("{name}: {what} differs by {d:e}"));
                }
            }
            n += 1;
        }
    }
    println!("{n} models compiled from XML step exactly like MuJoCo for 1000 steps");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Models that need what mjrs does not support (plugins, composites, flexes) are
/// refused with an error that names the feature, never compiled wrongly.
#[test]
fn unsupported_models_are_refused_by_name() {
    let entries: Vec<Entry> = corpus()
        .into_iter()
        .filter(|e| e.note == "unsupported")
        .collect();
    // every model of the corpus is supported now (flexes and composites included): the
    // check stands for models marked `unsupported` later
    for e in entries {
        match mjrs_xml::load_xml(&e.path, None) {
            Ok(_) => panic!("{}: compiles, but needs an unsupported feature", e.name),
            Err(err @ mjrs_xml::XmlError::Unsupported { .. }) => {
                assert!(
                    err.to_string().starts_with("not supported by mjrs: "),
                    "{err}"
                );
            }
            Err(other) => panic!("{}: {other}", e.name),
        }
    }
}

/// Models whose MJB is too large to keep as a fixture (meshes that SDF plugins generate by
/// marching cubes): mjrs's MJB has the SHA-256 of MuJoCo's (`fixtures/compile-hashes.txt`).
#[test]
fn large_models_have_mujocos_mjb_bytes() {
    let text = std::fs::read_to_string(fixtures().join("compile-hashes-models.txt")).unwrap();
    let hashes = std::fs::read_to_string(fixtures().join("compile-hashes.txt")).unwrap();
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("models");
    let mut failures = Vec::new();
    let mut n = 0;
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let c: Vec<&str> = line.split_whitespace().collect();
        let (name, path) = (c[0], c[1]);
        let theirs = hashes
            .lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
            .unwrap_or_else(|| panic!("{name}: no hash in compile-hashes.txt"));
        let ours = match mjrs_xml::load_xml(models.join(path), None) {
            Ok(mut c) => mjrs_tests::sha256::sha256_hex(&c.model.to_mjb(8).unwrap()),
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        if ours != theirs {
            failures.push(format!("{name}: MJB differs from MuJoCo's"));
        }
        n += 1;
    }
    println!("{n} large models with MuJoCo's MJB bytes");
    assert!(n > 0 && failures.is_empty(), "{}", failures.join("\n"));
}

/// The plugin helpers' models (`fixtures/plugin-models*.txt`: NAME and XML path first), compiled
/// by mjrs, against the MJB MuJoCo made of each (`fixtures/plugin/NAME.mjb`), field by field:
/// actuator, passive (body) and SDF plugin instances, their configuration and state layout.
#[test]
fn plugin_models_compile_like_mujoco() {
    let mut manifests: Vec<PathBuf> = std::fs::read_dir(fixtures())
        .unwrap()
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("plugin-models") && n.ends_with(".txt"))
        })
        .collect();
    manifests.sort();
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("models");
    let (mut failures, mut n, mut nfields) = (Vec::new(), 0, 0);
    for manifest in &manifests {
        let text = std::fs::read_to_string(manifest).unwrap();
        for line in text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        {
            let c: Vec<&str> = line.split_whitespace().collect();
            let (name, xml) = (c[0], c[1]);
            let fixture = fixtures().join("plugin").join(format!("{name}.mjb"));
            let mut reference = OwnedModel::from_mjb(&std::fs::read(fixture).unwrap()).unwrap();
            let mut ours = match mjrs_xml::load_xml(models.join(xml), None) {
                Ok(c) => c.model,
                Err(e) => {
                    failures.push(format!("{name}: {e}"));
                    continue;
                }
            };
            // the fixture was made with the manifest's stages switched off
            ours.view().opt.disableflags |= disable_bits(c.get(3).unwrap_or(&"-"));
            let (diffs, k) = differences(&reference.view(), &ours.view());
            nfields += k;
            n += 1;
            if !diffs.is_empty() {
                let list: Vec<String> = diffs
                    .iter()
                    .map(|d| format!("{} {}", d.name, d.what))
                    .collect();
                failures.push(format!("{name}: {}", list.join("; ")));
            }
        }
    }
    println!("{n} plugin models, {nfields} fields identical");
    assert!(n > 0 && failures.is_empty(), "{}", failures.join("\n"));
}
