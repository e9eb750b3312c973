//! Bad MJCF input: every class of mistake gives one clear error naming the file, the line and
//! the element (or the object), never a panic. MuJoCo's own malformed models are in the
//! conformance corpus (`tests/tests/compile.rs`, NOTE `error`); these are focused cases, plus a
//! property test that mutated real models never make the reader or the compiler panic.

use mjrs_xml::{compile_str, XmlError};
use proptest::prelude::*;

fn compile(xml: &str) -> Result<mjrs_xml::Compilation, XmlError> {
    compile_str(xml, "bad.xml", "", None)
}

/// Compiling `xml` fails with a message containing every one of `parts`.
fn fails_with(xml: &str, parts: &[&str]) {
    let msg = match compile(xml) {
        Ok(_) => panic!("compiled: {xml}"),
        Err(e) => e.to_string(),
    };
    for p in parts {
        assert!(msg.contains(p), "{msg:?} lacks {p:?}");
    }
}

#[test]
fn malformed_xml() {
    fails_with(
        "<mujoco><worldbody></mujoco>",
        &["XML parse error", "bad.xml"],
    );
    fails_with("", &["XML parse error"]);
    fails_with("<robot2/>", &["Unrecognized XML model type: 'robot2'"]);
    fails_with(
        "<mujoco><worldbody><geom size='1'/></worldbody>",
        &["XML parse error"],
    );
}

#[test]
fn schema_violations_name_element_and_line() {
    fails_with(
        "<mujoco>\n<worldbody>\n<geom size='1' colour='red'/>\n</worldbody></mujoco>",
        &[
            "Schema violation: unrecognized attribute: 'colour'",
            "Element 'geom', line 3",
            "bad.xml",
        ],
    );
    fails_with(
        "<mujoco><worldbody><bodyy/></worldbody></mujoco>",
        &["Schema violation: unrecognized element", "Element 'bodyy'"],
    );
    fails_with(
        "<mujoco><option><flag/><flag/></option></mujoco>",
        &["unique element 'flag' found 2 times", "Element 'option'"],
    );
}

#[test]
fn wrong_attribute_values_and_counts() {
    fails_with(
        "<mujoco><worldbody><geom size='1' pos='0 0'/></worldbody></mujoco>",
        &[
            "attribute 'pos' does not have enough data",
            "Element 'geom', line 1",
        ],
    );
    fails_with(
        "<mujoco><worldbody><geom size='1 2 3 4'/></worldbody></mujoco>",
        &["attribute 'size' has too much data"],
    );
    fails_with(
        "<mujoco><worldbody><geom size='1' pos='0 0 x'/></worldbody></mujoco>",
        &["problem reading attribute 'pos'"],
    );
    fails_with(
        "<mujoco><worldbody><geom type='cube' size='1'/></worldbody></mujoco>",
        &["invalid keyword: 'cube'"],
    );
    fails_with(
        "<mujoco><option timestep='1e999'/></mujoco>",
        &["problem reading attribute 'timestep'"],
    );
    fails_with(
        "<mujoco><worldbody><body><joint group='1.5'/><geom size='1'/></body></worldbody></mujoco>",
        &["problem reading attribute 'group'"],
    );
}

#[test]
fn missing_and_unreadable_files() {
    fails_with(
        "<mujoco><asset><mesh file='no_such_mesh.stl'/></asset></mujoco>",
        &["resource not found", "no_such_mesh.stl"],
    );
    fails_with(
        "<mujoco><include file='no_such_include.xml'/></mujoco>",
        &["no_such_include.xml", "Element 'include'"],
    );
    // a directory reads as an empty file, as C's fopen/fread see it
    fails_with(
        "<mujoco><asset><texture name='t' type='2d' file='.'/></asset></mujoco>",
        &[
            "texture file is empty: '.'",
            "Element name 't', id 0, line 1",
        ],
    );
    fails_with(
        "<mujoco><asset><hfield name='h' file='missing.png' size='1 1 1 1'/></asset></mujoco>",
        &["resource not found", "missing.png"],
    );
}

#[test]
fn bad_references() {
    fails_with(
        "<mujoco><worldbody><body><joint class='nope'/></body></worldbody></mujoco>",
        &["unknown default class name 'nope'", "Element 'joint'"],
    );
    fails_with(
        "<mujoco><worldbody><body><joint/><geom size='1'/></body></worldbody>\
         <sensor><touch site='nope'/></sensor></mujoco>",
        &["unrecognized name 'nope' of sensorized object"],
    );
    fails_with(
        "<mujoco><worldbody><geom size='1' material='nope'/></worldbody></mujoco>",
        &["material 'nope' not found in geom 0"],
    );
    fails_with(
        "<mujoco><actuator><motor joint='nope'/></actuator></mujoco>",
        &["unknown transmission target 'nope'"],
    );
    fails_with(
        "<mujoco><worldbody><geom name='a' size='1'/><geom name='a' size='1'/></worldbody></mujoco>",
        &["repeated name 'a' in geom"],
    );
}

#[test]
fn invalid_values() {
    fails_with(
        "<mujoco><worldbody><body><joint/><inertial pos='0 0 0' mass='-1' diaginertia='1 1 1'/></body>\
         </worldbody></mujoco>",
        // the minimum mass (0) applies first, as in MuJoCo
        &["mass and inertia of moving bodies must be larger than mjMINVAL"],
    );
    fails_with(
        "<mujoco><worldbody><geom type='box' size='0 1 1'/></worldbody></mujoco>",
        &[
            "size 0 must be positive in geom",
            "Element name '', id 0, line 1",
        ],
    );
    fails_with(
        "<mujoco><asset><mesh name='flat' vertex='0 0 0 1 0 0 0 1 0 1 1 0'/></asset>\
         <worldbody><body><joint/><geom type='mesh' mesh='flat'/></body></worldbody></mujoco>",
        &["Error: qhull error", "Element name 'flat', id 0"],
    );
    fails_with(
        "<mujoco><worldbody><body><joint limited='true' range='1 0'/><geom size='1'/></body></worldbody></mujoco>",
        &["range[0] should be smaller than range[1] in joint"],
    );
    fails_with(
        "<mujoco><worldbody><body><geom size='1'/><joint/></body></worldbody>\
         <keyframe><key qpos='1 2'/></keyframe></mujoco>",
        &["invalid qpos size, expected length 1"],
    );
}

#[test]
fn bad_replicates() {
    fails_with(
        "<mujoco><worldbody>\n<replicate><geom size='1'/></replicate></worldbody></mujoco>",
        &[
            "required attribute missing: 'count'",
            "Element 'replicate', line 2",
        ],
    );
    fails_with(
        "<mujoco><worldbody><replicate count='two'><geom size='1'/></replicate></worldbody></mujoco>",
        &["problem reading attribute 'count'", "Element 'replicate'"],
    );
    fails_with(
        "<mujoco><worldbody><replicate count='2' offset='1 0'><geom size='1'/></replicate>\
         </worldbody></mujoco>",
        &["attribute 'offset' does not have enough data"],
    );
    fails_with(
        "<mujoco><worldbody><replicate count='2' childclass='x'><geom size='1'/></replicate>\
         </worldbody></mujoco>",
        &["unknown default childclass", "Element 'replicate'"],
    );
    fails_with(
        "<mujoco><worldbody><replicate count='2'><bodyy/></replicate></worldbody></mujoco>",
        &["unrecognized model element 'bodyy'"],
    );
    // every replica doubles the numerics: 2^40 is refused, not attempted
    fails_with(
        "<mujoco><custom><numeric name='n' data='1'/></custom><worldbody>\
         <replicate count='40'><geom size='1'/></replicate></worldbody></mujoco>",
        &[
            "replicate makes more than 262144 copies",
            "Element 'replicate'",
        ],
    );
    fails_with(
        "<mujoco><worldbody><replicate count='1000'><replicate count='1000'>\
         <geom size='1'/></replicate></replicate></worldbody></mujoco>",
        &[
            "replicate count=\"1000\" would make 2001000 copies of objects",
            "more than the 262144 mjrs allows",
        ],
    );
}

#[test]
fn good_model_compiles() {
    let c = compile(
        "<mujoco><worldbody><light pos='0 0 3'/><geom type='plane' size='1 1 1'/>\
         <body pos='0 0 1'><freejoint/><geom size='0.1'/></body></worldbody></mujoco>",
    )
    .unwrap();
    assert_eq!(c.model.sizes().nq, 7);
}

/// Every model of the corpus, read once.
fn corpus_texts() -> Vec<(String, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/models");
    let list = std::fs::read_to_string(root.join("../fixtures/compile-models.txt")).unwrap();
    list.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let path = root.join(l.split_whitespace().nth(1)?);
            let text = std::fs::read_to_string(&path).ok()?;
            Some((path.parent()?.to_string_lossy().into_owned() + "/", text))
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Mutated real models (bytes replaced, cut, duplicated) compile or fail with an error.
    #[test]
    fn mutated_models_never_panic(
        pick in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0u8..4, any::<u8>()), 1..6),
    ) {
        let corpus = corpus_texts();
        let (dir, text) = &corpus[pick.index(corpus.len())];
        let mut bytes = text.clone().into_bytes();
        for (at, op, b) in edits {
            if bytes.is_empty() {
                break;
            }
            let i = at.index(bytes.len());
            match op {
                0 => bytes[i] = b" <>/=\"'0123456789.-ex"[usize::from(b) % 21],
                1 => bytes.truncate(i),
                2 => { bytes.remove(i); }
                _ => {
                    let tail = bytes[i..].to_vec();
                    bytes.extend_from_slice(&tail[..tail.len().min(64)]);
                }
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        let _ = compile_str(&text, "mutated.xml", dir, None);
    }
}
