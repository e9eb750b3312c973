//! `name2id` and `id2name` give MuJoCo 3.1.6's answers (fixture `misc/names.json`, made by
//! `generate-names.py`) on MuJoCo's own MJB files: every name of each model and names that are
//! not there, for every object type (unnamed types and `OBJ_XBODY` included), ids out of range.
//! A damaged name table gives `None`, never a panic.

use mjrs_core::name::{id2name, name2id};
use mjrs_core::types::{OBJ_BODY, OBJ_JOINT};
use mjrs_core::{mjb, Model};
use mjrs_tests::{fixtures, read_json};

fn with_model(rel: &str, f: impl FnOnce(&mut Model)) {
    let blob = std::fs::read(fixtures().join(rel)).unwrap();
    let mut mbuf = vec![0u8; mjb::read_header(&blob).unwrap().model_bytes().unwrap()];
    let mut m = mjb::load(&blob, &mut mbuf).unwrap();
    f(&mut m);
}

#[test]
fn answers_are_mujocos() {
    let reference = read_json(&fixtures().join("misc/names.json"));
    let models = reference.as_object().unwrap();
    assert_eq!(models.len(), 3);
    for (rel, answers) in models {
        with_model(rel, |m| {
            let queries = answers["name2id"].as_array().unwrap();
            for q in queries {
                let (ty, name, id) = (
                    q[0].as_i64().unwrap(),
                    q[1].as_str().unwrap(),
                    q[2].as_i64(),
                );
                let ours = name2id(m, ty as i32, name).map_or(-1, |i| i as i64);
                assert_eq!(Some(ours), id, "{rel}: name2id({ty}, {name:?})");
            }
            for q in answers["id2name"].as_array().unwrap() {
                let (ty, id, name) = (
                    q[0].as_i64().unwrap(),
                    q[1].as_i64().unwrap(),
                    q[2].as_str(),
                );
                let ours = usize::try_from(id)
                    .ok()
                    .and_then(|i| id2name(m, ty as i32, i));
                assert_eq!(ours, name, "{rel}: id2name({ty}, {id})");
            }
            assert!(queries.iter().any(|q| q[2].as_i64() != Some(-1)));
        });
    }
}

#[test]
fn damaged_tables_find_nothing_and_do_not_panic() {
    with_model("compile/arm26.mjb", |m| {
        let name = id2name(m, OBJ_JOINT, 1).unwrap().to_string();
        assert_eq!(name2id(m, OBJ_JOINT, &name), Some(1));
        // every slot names joint 0: probing visits them all and stops
        m.names_map.fill(0);
        assert_eq!(name2id(m, OBJ_JOINT, &name), None);
        m.names_map.fill(i32::MAX);
        assert_eq!(name2id(m, OBJ_JOINT, &name), None);
        m.name_jntadr.fill(i32::MAX);
        assert_eq!(id2name(m, OBJ_JOINT, 1), None);
        assert_eq!(name2id(m, OBJ_BODY, "\0"), None);
    });
}
