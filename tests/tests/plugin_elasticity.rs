//! `mujoco.elasticity.solid`, `.membrane` and `.shell` (`core/src/plugin/elasticity`) against
//! MuJoCo 3.1.6 with its plugin library, for the models of
//! `fixtures/plugin-models-elasticity.txt` (focused meshes on bodies, bent by a keyframe, under
//! Euler, RK4 and implicitfast; MuJoCo's particle composites and flex models made small, flexes
//! with vertices pinned to the world and to a moving body; see `fixtures/generate-plugin.sh`):
//! * after 20 steps of the control law and a forward pass, the state, generalized forces
//!   (`qfrc_passive` holds the plugins' forces), accelerations and body poses are bit for bit
//!   MuJoCo's;
//! * over 1000 steps, time, qpos, qvel, act and sensordata are bit for bit MuJoCo's;
//! * the focused models compiled by mjrs from their MJCF are MuJoCo's field by field and run
//!   MuJoCo's 1000 steps bit for bit;
//! * bad configurations fail as in MuJoCo (`models/plugin/bad/elasticity_*.xml`), bad models
//!   that MuJoCo would read outside its arrays with are refused;
//! * damping keeps the previous lengths in the instance's object with MuJoCo's reset and copy
//!   behaviour (`fixtures/generate-elasticity-damping.py`).

use mjrs_core::plugin::elasticity::{membrane::MEMBRANE, shell::SHELL, solid::SOLID};
use mjrs_core::plugin::{self, Plugin};
use mjrs_core::{mjb, Model};
use mjrs_tests::harness::Suite;
use mjrs_tests::plugin_traj::{check_recorded_data, check_refusals, Message};
use mjrs_tests::read_json;
use serde_json::Value;

const ELASTIC: Suite = Suite {
    prefix: "plugin-models-elasticity",
    dir: "plugin",
};

fn register() {
    plugin::register_first_party();
}

#[test]
fn data_after_steps_is_bit_for_bit() {
    let fields = check_recorded_data(&ELASTIC, "qfrc_passive");
    println!("{fields} Data fields compared bit for bit");
    assert!(fields > 100, "only {fields} fields compared");
}

#[test]
fn trajectories_are_bit_for_bit_for_1000_steps() {
    register();
    let failures = ELASTIC.traj_failures(0.0, 0.0);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn focused_models_compiled_by_mjrs_are_mujocos_and_run_its_trajectories() {
    register();
    let models = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/plugin");
    let (mut fields, mut n) = (0, 0);
    // the composites and flexcomps wait for mjrs's <composite> and <flexcomp>; the rest are
    // plain bodies
    for case in ELASTIC
        .cases()
        .into_iter()
        .filter(|c| !c.name.contains("composite") && !c.name.contains("flex"))
    {
        let name = case.name.as_str();
        let xml = models.join(format!("{name}.xml"));
        fields += ELASTIC.check_compiled_model(name, &xml, case.key).0;
        n += 1;
    }
    println!("{n} elasticity models compiled by mjrs: {fields} fields identical, 1000 steps each");
    assert_eq!(n, 6);
}

/// Non-numbers (also in `face` and `edge`) fail `init` with MuJoCo's message; unset `young` and
/// `poisson` with inner spaces load; a face on a body without the instance and edge numbers in
/// the wrong order are MuJoCo's fatal errors.
#[test]
fn bad_configurations_fail_as_in_mujoco() {
    assert_eq!(check_refusals("elasticity_", Message::FirstLine), 8);
}

/// The model of fixture `name`, editable.
fn with_model(name: &str, f: impl FnOnce(&mut Model)) {
    register();
    let blob = std::fs::read(ELASTIC.path(name, "mjb")).unwrap();
    let header = mjb::read_header(&blob).unwrap();
    let mut mbuf = vec![0u8; header.model_bytes().unwrap()];
    let mut m = mjb::load(&blob, &mut mbuf).unwrap();
    f(&mut m);
}

/// Overwrites the configuration text of `key` in `plugin_attr` (same length) by `value`.
fn set_config(m: &mut Model, plugin: &dyn Plugin, key: &str, value: &str) {
    let index = plugin.attributes().iter().position(|a| *a == key).unwrap();
    let mut offset = m.plugin_attradr[0] as usize;
    for _ in 0..index {
        offset += m.plugin_attr[offset..]
            .iter()
            .position(|&b| b == 0)
            .unwrap()
            + 1;
    }
    let old = m.plugin_attr[offset..]
        .iter()
        .position(|&b| b == 0)
        .unwrap();
    assert!(value.len() <= old, "no longer than the old text");
    let padded = format!("{value:<old$}");
    m.plugin_attr[offset..offset + old].copy_from_slice(padded.as_bytes());
}

/// Solid refuses a flex that is not 3D, with MuJoCo's message; a flex mesh needs its edge numbers
/// (they index `flexedge_length`), in the order the flex numbers its edges.
#[test]
fn flex_meshes_are_checked() {
    with_model("elasticity_flex_solid", |m| {
        assert_eq!(SOLID.init(m, 0), Ok(()));
        m.flex_dim[0] = 2;
        let e = SOLID.init(m, 0).unwrap_err();
        assert_eq!(e.message, "mujoco.elasticity.solid requires a 3D mesh");
    });
    with_model("elasticity_flex_solid", |m| {
        set_config(m, &SOLID, "edge", "");
        assert!(SOLID
            .init(m, 0)
            .unwrap_err()
            .message
            .contains("edge numbers"));
    });
    with_model("elasticity_flex_membrane", |m| {
        assert_eq!(MEMBRANE.init(m, 0), Ok(()));
        // the first triangle's edges are 0 1 2: number one of them as the next edge
        set_config(m, &MEMBRANE, "edge", "0 1 3");
        let e = MEMBRANE.init(m, 0).unwrap_err();
        assert_eq!(
            e.message,
            "edge ordering is incoherent between flex and plugin"
        );
    });
}

/// The squared edge lengths that damping compares against live in the instance's object, as in
/// MuJoCo's C++ object: every force computation with damping replaces them (two forward passes
/// give different forces), a reset keeps them, and `mj_copyData` leaves the destination its own
/// (`fixtures/generate-elasticity-damping.py`); all bit for bit MuJoCo's.
#[test]
fn damping_lengths_live_in_the_object_as_in_mujoco() {
    register();
    let reference = read_json(&mjrs_tests::fixtures().join("plugin/elasticity-damping.json"));
    let reference = reference.as_object().unwrap();
    let floats = |v: &Value| -> Vec<f64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    };
    let state = |d: &mjrs_core::Data| (d.qpos.to_vec(), d.qvel.to_vec());
    let expect = |v: &Value| (floats(&v["qpos"]), floats(&v["qvel"]));
    for (name, case) in reference {
        let blob = std::fs::read(ELASTIC.path(name, "mjb")).unwrap();
        let mut model = mjrs_alloc::OwnedModel::from_mjb(&blob).unwrap();
        let m = model.view();
        let start = |d: &mut mjrs_core::Data| {
            mjrs_core::io::reset_data_keyframe(&m, d, if m.nkey > 0 { 0 } else { -1 })
        };
        let steps = |d: &mut mjrs_core::Data, n: usize| {
            for _ in 0..n {
                mjrs_core::step(&m, d).unwrap();
            }
        };

        let mut data = mjrs_std::OwnedData::new(&m).unwrap();
        let mut d = data.view();
        start(&mut d);
        for pass in 0..2 {
            mjrs_core::forward(&m, &mut d).unwrap();
            let theirs = floats(&case["forward_twice"][pass]);
            assert_eq!(d.qfrc_passive.to_vec(), theirs, "{name}: forward {pass}");
        }

        let mut data = mjrs_std::OwnedData::new(&m).unwrap();
        let mut d = data.view();
        start(&mut d);
        steps(&mut d, 30);
        start(&mut d);
        steps(&mut d, 30);
        assert_eq!(state(&d), expect(&case["after_reset"]), "{name}: reset");

        let mut src_data = mjrs_std::OwnedData::new(&m).unwrap();
        let mut dst_data = mjrs_std::OwnedData::new(&m).unwrap();
        let (mut src, mut dst) = (src_data.view(), dst_data.view());
        start(&mut src);
        steps(&mut src, 30);
        mjrs_core::io::copy_data(&mut dst, &src).unwrap();
        steps(&mut src, 30);
        steps(&mut dst, 30);
        assert_eq!(state(&src), expect(&case["copy_src"]), "{name}: source");
        assert_eq!(state(&dst), expect(&case["copy_dst"]), "{name}: copy");
        assert_ne!(
            state(&src),
            state(&dst),
            "{name}: the copy damps differently"
        );
    }
    assert_eq!(reference.len(), 4);
}

/// An instance's object is cut from the top of the arena when the data is made: an arena too
/// small for it is the arena's error then, never a panic; the rest of the arena serves the steps.
#[test]
fn objects_need_room_in_the_arena() {
    register();
    let full = std::fs::read(ELASTIC.path("elasticity_floppy_flex", "mjb")).unwrap();
    let at = 4 * (5 + 76); // narena, the size_t after the 76 int sizes of the MJB header
    let make = |narena: u64| {
        let mut blob = full.clone();
        blob[at..at + 8].copy_from_slice(&narena.to_le_bytes());
        let header = mjb::read_header(&blob).unwrap();
        let mut mbuf = vec![0u8; header.model_bytes().unwrap()];
        let m = mjb::load(&blob, &mut mbuf).unwrap();
        let mut dbuf = vec![0u8; mjrs_core::Data::bytes_needed(m.sizes()).unwrap()];
        mjrs_core::Data::new(&m, &mut dbuf).map(|d| (d.plugin_objects().len(), d.arena.len()))
    };
    let narena = u64::from_le_bytes(full[at..at + 8].try_into().unwrap());
    let (object, arena) = make(narena).unwrap();
    // 120 tetrahedra: 4 + 6 integers and 36 + 6 + 6 reals each, a head and the damping
    assert_eq!(object, 4 * 8 + 120 * 40 + (120 * 48 + 1) * 8);
    assert_eq!(object + arena, narena as usize);
    for small in [0, 8, 4096, object as u64 - 8] {
        match make(small) {
            Err(mjrs_core::ArenaError::OutOfArena { requested, .. }) => {
                assert_eq!(requested, object, "narena {small}")
            }
            other => panic!("narena {small}: {other:?}"),
        }
    }
}

#[test]
fn faces_outside_the_mesh_are_refused() {
    // face "0 2 1 3 4 1 2 3" on five bodies
    with_model("elasticity_solid_noedge", |m| {
        set_config(m, &SOLID, "face", "0 2 1 3 5 1 2 3");
        assert!(SOLID.init(m, 0).unwrap_err().message.contains("vertex"));
        set_config(m, &SOLID, "face", "0 2 1 3-4 1 2 3");
        // "3-4" reads as 3 then -4: a negative vertex
        assert!(SOLID.init(m, 0).is_err());
    });
    // membrane: face "0 1 2 1 3 2" on four bodies
    with_model("elasticity_membrane_pair", |m| {
        set_config(m, &MEMBRANE, "face", "0 1 2 1 9 2");
        assert!(MEMBRANE.init(m, 0).unwrap_err().message.contains("vertex"));
    });
    // shell: face "0 1 3 1 4 3 1 2 4 2 5 4" on six bodies
    with_model("elasticity_shell_strip", |m| {
        set_config(m, &SHELL, "face", "0 1 3 1 4 3 1 2 4 2 7 4");
        assert!(SHELL.init(m, 0).unwrap_err().message.contains("vertex"));
    });
}

#[test]
fn an_instance_without_bodies_is_refused() {
    for (name, p) in [
        ("elasticity_solid_tets", &SOLID as &dyn Plugin),
        ("elasticity_membrane_pair", &MEMBRANE),
        ("elasticity_shell_strip", &SHELL),
    ] {
        with_model(name, |m| {
            m.body_plugin.fill(-1);
            let e = p.init(m, 0).unwrap_err();
            assert!(e.message.contains("used by a body"), "{name}: {e}");
        });
    }
}

#[test]
fn vertices_without_three_dofs_are_refused() {
    with_model("elasticity_solid_tets", |m| {
        // the last body's dofs would run past nv
        let last = m.nbody - 1;
        m.body_plugin[last] = -1;
        m.body_dofadr[1] = 3;
        assert!(SOLID.init(m, 0).is_err());
    });
}

#[test]
fn trailing_face_numbers_are_ignored() {
    // MuJoCo takes the whole elements of the list: a trailing partial element is dropped
    with_model("elasticity_membrane_pair", |m| {
        set_config(m, &MEMBRANE, "face", "0 1 2 1 3  ");
        assert_eq!(MEMBRANE.init(m, 0), Ok(()));
    });
}
