//! Unit tests on a small hand-built model: it passes, and breaking one field at a time gives
//! the specific error.

use super::*;
use crate::model::ModelSizes;
use crate::types::*;
use std::vec;

/// World, `b1` (hinge, child of the world) and `b2` (hinge, child of `b1`), one sphere each.
fn tiny_sizes() -> ModelSizes {
    let mut s = ModelSizes {
        nq: 2,
        nv: 2,
        nbody: 3,
        njnt: 2,
        ngeom: 2,
        nnames: 6,
        nM: 3,
        nD: 4,
        nB: 6,
        ntree: 1,
        njmax: -1,
        nconmax: -1,
        ..Default::default()
    };
    s.nnames_map = crate::model::mujoco_nnames_map(&s);
    s
}

/// Copies what fits of `src` into `dst` (tests may shrink or grow sizes).
fn put<T: Copy>(dst: &mut [T], src: &[T]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d = *s;
    }
}

fn fill_tiny(m: &mut Model) {
    put(&mut m.body_parentid, &[0, 0, 1]);
    put(&mut m.body_rootid, &[0, 1, 1]);
    put(&mut m.body_weldid, &[0, 1, 2]);
    m.body_mocapid.fill(-1);
    put(&mut m.body_jntnum, &[0, 1, 1]);
    put(&mut m.body_jntadr, &[-1, 0, 1]);
    put(&mut m.body_dofnum, &[0, 1, 1]);
    put(&mut m.body_dofadr, &[-1, 0, 1]);
    put(&mut m.body_treeid, &[-1, 0, 0]);
    put(&mut m.body_geomnum, &[0, 1, 1]);
    put(&mut m.body_geomadr, &[-1, 0, 1]);
    m.body_plugin.fill(-1);
    m.body_bvhadr.fill(-1);
    m.jnt_type.fill(JNT_HINGE);
    put(&mut m.jnt_qposadr, &[0, 1]);
    put(&mut m.jnt_dofadr, &[0, 1]);
    put(&mut m.jnt_bodyid, &[1, 2]);
    put(&mut m.dof_bodyid, &[1, 2]);
    put(&mut m.dof_jntid, &[0, 1]);
    put(&mut m.dof_parentid, &[-1, 0]);
    put(&mut m.dof_Madr, &[0, 1]);
    m.geom_type.fill(GEOM_SPHERE);
    m.geom_condim.fill(3);
    put(&mut m.geom_bodyid, &[1, 2]);
    m.geom_dataid.fill(-1);
    m.geom_matid.fill(-1);
    m.geom_plugin.fill(-1);
    put(&mut m.names, b"world\0");
    m.names_map.fill(-1);
}

/// Validates the tiny model with `sizes` edited by `s` and arrays edited by `f`.
fn check_with(s: impl FnOnce(&mut ModelSizes), f: impl FnOnce(&mut Model)) -> Check {
    let mut sizes = tiny_sizes();
    let map = sizes.nnames_map;
    s(&mut sizes);
    if sizes.nnames_map == map {
        sizes.nnames_map = crate::model::mujoco_nnames_map(&sizes);
    }
    let mut buf = vec![0u8; Model::bytes_needed(&sizes).unwrap()];
    let mut m = Model::carve(sizes, &mut buf).unwrap();
    fill_tiny(&mut m);
    f(&mut m);
    validate(&m)
}

fn check(f: impl FnOnce(&mut Model)) -> Check {
    check_with(|_| {}, f)
}

/// Asserts that `r` fails on `field[index]`, returning the problem.
#[track_caller]
fn fails_at(r: Check, field: &str, index: Option<usize>) -> Problem {
    let e = r.expect_err("validation should fail");
    assert_eq!((e.field, e.index), (field, index), "{e}");
    e.problem
}

#[test]
fn tiny_model_is_valid() {
    assert_eq!(check(|_| {}), Ok(()));
}

#[test]
fn error_messages_name_field_index_and_values() {
    let e = check(|m| m.jnt_qposadr[1] = 9).unwrap_err();
    assert_eq!(e.to_string(), "jnt_qposadr[1]: expected 1, found 9");
    let e = check(|m| m.geom_bodyid[0] = 7).unwrap_err();
    assert_eq!(
        e.to_string(),
        "geom_bodyid[0]: 7 is outside the valid range 0..3"
    );
    let e = check_with(|s| s.nplugin = 1, |m| m.plugin[0] = 40).unwrap_err();
    assert_eq!(
        e.to_string(),
        "plugin[0]: no plugin is registered at slot 40"
    );
    let e = check_with(|s| s.nplugin = 1, |m| m.plugin[0] = 5).unwrap_err();
    assert_eq!(
        e.to_string(),
        "plugin[0]: plugin slot 5 (mujoco.sdf.sdflib) is not registered"
    );
}

#[test]
fn body_tree() {
    fails_at(check_with(|s| s.nbody = 0, |_| {}), "nbody", None);
    fails_at(check(|m| m.body_parentid[0] = 1), "body_parentid", Some(0));
    fails_at(check(|m| m.body_parentid[1] = 1), "body_parentid", Some(1));
    fails_at(check(|m| m.body_parentid[2] = 2), "body_parentid", Some(2));
    fails_at(check(|m| m.body_parentid[2] = -1), "body_parentid", Some(2));
    fails_at(check(|m| m.body_rootid[2] = 2), "body_rootid", Some(2));
    fails_at(check(|m| m.body_weldid[2] = 1), "body_weldid", Some(2));
    fails_at(check(|m| m.body_treeid[1] = -1), "body_treeid", Some(1));
}

#[test]
fn joints_and_dofs() {
    fails_at(check(|m| m.jnt_type[0] = 4), "jnt_type", Some(0));
    fails_at(check(|m| m.jnt_bodyid[1] = 1), "jnt_bodyid", Some(1));
    fails_at(check(|m| m.jnt_dofadr[1] = 0), "jnt_dofadr", Some(1));
    fails_at(check(|m| m.body_jntadr[2] = 0), "body_jntadr", Some(2));
    fails_at(check(|m| m.body_jntadr[0] = 0), "body_jntadr", Some(0));
    fails_at(check(|m| m.body_jntnum[2] = -1), "body_jntnum", Some(2));
    fails_at(check(|m| m.body_jntnum[2] = 5), "body_jntadr", Some(2));
    fails_at(check(|m| m.body_dofadr[1] = -1), "body_dofadr", Some(1));
    fails_at(check(|m| m.dof_bodyid[0] = 2), "dof_bodyid", Some(0));
    fails_at(check(|m| m.dof_jntid[1] = 0), "dof_jntid", Some(1));
    // a ball joint needs 4 qpos and 3 dofs
    fails_at(check(|m| m.jnt_type[1] = JNT_BALL), "jnt_qposadr", Some(1));
    // a free joint only in a child of the world
    fails_at(
        check_with(
            |s| {
                s.nq = 8;
                s.nv = 7;
            },
            |m| m.jnt_type[1] = JNT_FREE,
        ),
        "jnt_type",
        Some(1),
    );
    // totals
    fails_at(check_with(|s| s.nq = 3, |_| {}), "nq", None);
}

#[test]
fn sparse_structures() {
    fails_at(check(|m| m.dof_parentid[1] = -1), "dof_parentid", Some(1));
    fails_at(check(|m| m.dof_parentid[0] = 0), "dof_parentid", Some(0));
    fails_at(check(|m| m.dof_parentid[1] = 1), "dof_parentid", Some(1));
    fails_at(check(|m| m.dof_Madr[1] = 2), "dof_Madr", Some(1));
    fails_at(check_with(|s| s.nM = 4, |_| {}), "nM", None);
    fails_at(check_with(|s| s.nD = 3, |_| {}), "nD", None);
    fails_at(check_with(|s| s.nB = 5, |_| {}), "nB", None);
    fails_at(check_with(|s| s.nB = 7, |_| {}), "nB", None);
    fails_at(check(|m| m.dof_treeid[1] = 1), "dof_treeid", Some(1));
    fails_at(check_with(|s| s.ntree = 2, |_| {}), "ntree", None);
    fails_at(check(|m| m.dof_simplenum[1] = 1), "dof_simplenum", Some(1));
}

#[test]
fn simple_bodies_and_sameframe() {
    fails_at(check(|m| m.body_simple[1] = 3), "body_simple", Some(1));
    // b2 has a moving parent, so it cannot be simple
    fails_at(
        check(|m| {
            m.body_simple[2] = 1;
            m.body_sameframe[2] = 1;
        }),
        "body_simple",
        Some(2),
    );
    // a simple b1 with its dof counted in dof_simplenum is fine, apart from its child b2
    let r = check(|m| {
        m.body_simple[1] = 1;
        m.body_sameframe[1] = 1;
        m.dof_simplenum[0] = 1;
    });
    fails_at(r, "body_simple", Some(1));
    fails_at(
        check(|m| m.body_sameframe[0] = 2),
        "body_sameframe",
        Some(0),
    );
    fails_at(
        check(|m| m.geom_sameframe[0] = 3),
        "geom_sameframe",
        Some(0),
    );
}

#[test]
fn mocap_bodies() {
    // b1 as mocap: it has a joint
    let r = check_with(|s| s.nmocap = 1, |m| m.body_mocapid[1] = 0);
    fails_at(r, "body_mocapid", Some(1));
    // an id that is not the next one
    let r = check_with(|s| s.nmocap = 1, |m| m.body_mocapid[1] = 1);
    fails_at(r, "body_mocapid", Some(1));
    // a mocap count with no mocap body
    fails_at(check_with(|s| s.nmocap = 1, |_| {}), "nmocap", None);
}

#[test]
fn gravcomp_count() {
    fails_at(check(|m| m.body_gravcomp[1] = 1.0), "ngravcomp", None);
    assert_eq!(
        check_with(|s| s.ngravcomp = 1, |m| m.body_gravcomp[2] = 0.5),
        Ok(())
    );
}

#[test]
fn geoms() {
    fails_at(check(|m| m.geom_bodyid[1] = 1), "geom_bodyid", Some(1));
    fails_at(check(|m| m.body_geomnum[2] = 2), "body_geomadr", Some(2));
    fails_at(check(|m| m.body_geomadr[2] = -1), "body_geomadr", Some(2));
    fails_at(check(|m| m.geom_type[0] = 9), "geom_type", Some(0));
    fails_at(check(|m| m.geom_type[0] = GEOM_SDF), "geom_dataid", Some(0));
    fails_at(
        check(|m| m.geom_type[0] = GEOM_MESH),
        "geom_dataid",
        Some(0),
    );
    fails_at(check(|m| m.geom_dataid[0] = 0), "geom_dataid", Some(0));
    fails_at(check(|m| m.geom_condim[1] = 2), "geom_condim", Some(1));
    fails_at(check(|m| m.geom_matid[1] = 0), "geom_matid", Some(1));
    fails_at(check(|m| m.geom_matid[1] = -2), "geom_matid", Some(1));
    // planes only in static bodies
    fails_at(check(|m| m.geom_type[0] = GEOM_PLANE), "geom_type", Some(0));
    fails_at(check(|m| m.geom_plugin[0] = 0), "geom_plugin", Some(0));
}

#[test]
fn sizes_and_options() {
    fails_at(check_with(|s| s.nnames_map = 2, |_| {}), "nnames_map", None);
    fails_at(check_with(|s| s.nflex = 1, |_| {}), "flex_matid", Some(0));
    fails_at(
        check_with(|s| s.nflex = 1, |m| m.flex_matid[0] = -1),
        "flex_condim",
        Some(0),
    );
    fails_at(check_with(|s| s.nbvh = 1, |_| {}), "nbvh", None);
    fails_at(check_with(|s| s.njmax = -2, |_| {}), "njmax", None);
    fails_at(check(|m| m.opt.integrator = 4), "opt.integrator", None);
    fails_at(check(|m| m.opt.cone = -1), "opt.cone", None);
    fails_at(check(|m| m.opt.jacobian = 3), "opt.jacobian", None);
    fails_at(check(|m| m.opt.solver = 3), "opt.solver", None);
    fails_at(check(|m| m.opt.iterations = -1), "opt.iterations", None);
    fails_at(
        check(|m| m.opt.sdf_iterations = -1),
        "opt.sdf_iterations",
        None,
    );
}

#[test]
fn names() {
    fails_at(check(|m| m.name_bodyadr[2] = 6), "name_bodyadr", Some(2));
    fails_at(check(|m| m.name_geomadr[0] = -1), "name_geomadr", Some(0));
    fails_at(check(|m| m.names[5] = b'x'), "names", Some(5));
    // body segment: ids below nbody; joint segment (after 2 * nbody entries): below njnt
    assert_eq!(check(|m| m.names_map[0] = 2), Ok(()));
    fails_at(check(|m| m.names_map[0] = 3), "names_map", Some(0));
    fails_at(check(|m| m.names_map[6] = 2), "names_map", Some(6));
}

/// One actuator, optionally with activation; `edit` breaks it.
fn with_actuator(na: usize, edit: impl FnOnce(&mut Model)) -> Check {
    check_with(
        |s| {
            s.nu = 1;
            s.na = na;
        },
        |m| {
            m.names_map.fill(-1);
            m.actuator_trnid.copy_from_slice(&[1, -1]);
            m.actuator_actadr[0] = -1;
            m.actuator_plugin[0] = -1;
            edit(m);
        },
    )
}

#[test]
fn actuators() {
    assert_eq!(with_actuator(0, |_| {}), Ok(()));
    fails_at(
        with_actuator(0, |m| m.actuator_trnid[0] = 2),
        "actuator_trnid",
        Some(0),
    );
    fails_at(
        with_actuator(0, |m| m.actuator_trnid[1] = 0),
        "actuator_trnid",
        Some(1),
    );
    fails_at(
        with_actuator(0, |m| m.actuator_trntype[0] = TRN_UNDEFINED),
        "actuator_trntype",
        Some(0),
    );
    fails_at(
        with_actuator(0, |m| m.actuator_trntype[0] = TRN_SITE),
        "actuator_trnid",
        Some(0),
    );
    fails_at(
        with_actuator(0, |m| m.actuator_gaintype[0] = 4),
        "actuator_gaintype",
        Some(0),
    );
    // a filter needs one activation, at address 0
    fails_at(
        with_actuator(1, |m| m.actuator_dyntype[0] = DYN_FILTER),
        "actuator_actnum",
        Some(0),
    );
    let filter = |m: &mut Model| {
        m.actuator_dyntype[0] = DYN_FILTER;
        m.actuator_actnum[0] = 1;
        m.actuator_actadr[0] = 0;
    };
    assert_eq!(with_actuator(1, filter), Ok(()));
    fails_at(
        with_actuator(1, |m| {
            filter(m);
            m.actuator_actadr[0] = -1;
        }),
        "actuator_actadr",
        Some(0),
    );
    fails_at(with_actuator(2, filter), "na", None);
}

/// One sensor of type `ty` on object (`objtype`, `objid`), with dimension `dim`.
fn with_sensor(
    ty: i32,
    objtype: i32,
    objid: i32,
    dim: usize,
    edit: impl FnOnce(&mut Model),
) -> Check {
    check_with(
        |s| {
            s.nsensor = 1;
            s.nsensordata = dim;
        },
        |m| {
            m.names_map.fill(-1);
            m.sensor_type[0] = ty;
            m.sensor_objtype[0] = objtype;
            m.sensor_objid[0] = objid;
            m.sensor_refid[0] = -1;
            m.sensor_dim[0] = dim as i32;
            m.sensor_needstage[0] = STAGE_POS;
            m.sensor_plugin[0] = -1;
            edit(m);
        },
    )
}

#[test]
fn sensors() {
    assert_eq!(with_sensor(SENS_JOINTPOS, OBJ_JOINT, 1, 1, |_| {}), Ok(()));
    fails_at(
        with_sensor(SENS_JOINTPOS, OBJ_JOINT, 2, 1, |_| {}),
        "sensor_objid",
        Some(0),
    );
    fails_at(
        with_sensor(SENS_JOINTPOS, OBJ_BODY, 1, 1, |_| {}),
        "sensor_objtype",
        Some(0),
    );
    fails_at(
        with_sensor(SENS_JOINTPOS, OBJ_JOINT, 1, 2, |_| {}),
        "sensor_dim",
        Some(0),
    );
    fails_at(
        with_sensor(SENS_JOINTPOS, OBJ_JOINT, 1, 1, |m| {
            m.sensor_needstage[0] = STAGE_ACC
        }),
        "sensor_needstage",
        Some(0),
    );
    fails_at(
        with_sensor(SENS_JOINTPOS, OBJ_JOINT, 1, 1, |m| m.sensor_adr[0] = 1),
        "sensor_adr",
        Some(0),
    );
    // a ball sensor on a hinge
    let r = with_sensor(SENS_BALLQUAT, OBJ_JOINT, 0, 4, |m| {
        m.sensor_datatype[0] = DATATYPE_QUATERNION;
    });
    fails_at(r, "sensor_objid", Some(0));
    // a frame sensor with a reference
    let frame = |m: &mut Model| {
        m.sensor_reftype[0] = OBJ_GEOM;
        m.sensor_refid[0] = 1;
    };
    assert_eq!(with_sensor(SENS_FRAMEPOS, OBJ_BODY, 2, 3, frame), Ok(()));
    let r = with_sensor(SENS_FRAMEPOS, OBJ_BODY, 2, 3, |m| {
        frame(m);
        m.sensor_refid[0] = 2;
    });
    fails_at(r, "sensor_refid", Some(0));
    let r = with_sensor(SENS_FRAMEPOS, OBJ_BODY, 2, 3, |m| {
        frame(m);
        m.sensor_reftype[0] = OBJ_JOINT;
    });
    fails_at(r, "sensor_reftype", Some(0));
    // user sensors: any dimension, the data type decides some
    let user = |m: &mut Model| {
        m.sensor_objtype[0] = OBJ_UNKNOWN;
        m.sensor_objid[0] = -1;
    };
    assert_eq!(with_sensor(SENS_USER, 0, -1, 5, user), Ok(()));
    let r = with_sensor(SENS_USER, 0, -1, 5, |m| {
        user(m);
        m.sensor_datatype[0] = DATATYPE_AXIS;
    });
    fails_at(r, "sensor_dim", Some(0));
    fails_at(
        with_sensor(SENS_PLUGIN, 0, -1, 0, |_| {}),
        "sensor_plugin",
        Some(0),
    );
    fails_at(with_sensor(99, 0, -1, 1, |_| {}), "sensor_type", Some(0));
}

#[test]
fn equality_constraints() {
    let with_eq = |ty: i32, o1: i32, o2: i32| {
        check_with(
            |s| {
                s.neq = 1;
                s.nemax = if ty == EQ_WELD { 7 } else { 1 };
            },
            |m| {
                m.names_map.fill(-1);
                m.eq_type[0] = ty;
                m.eq_obj1id[0] = o1;
                m.eq_obj2id[0] = o2;
            },
        )
    };
    assert_eq!(with_eq(EQ_JOINT, 0, -1), Ok(()));
    assert_eq!(with_eq(EQ_WELD, 2, 0), Ok(()));
    fails_at(with_eq(EQ_WELD, 2, -1), "eq_obj2id", Some(0));
    fails_at(with_eq(EQ_JOINT, 2, 0), "eq_obj1id", Some(0));
    fails_at(with_eq(EQ_TENDON, 0, -1), "eq_obj1id", Some(0));
    fails_at(with_eq(EQ_DISTANCE, 0, 1), "eq_type", Some(0));
    // no flex to constrain
    fails_at(with_eq(EQ_FLEX, 0, -1), "eq_obj1id", Some(0));
    // nemax counts 3 rows per connect
    fails_at(with_eq(EQ_CONNECT, 1, 2), "nemax", None);
}

/// A fixed tendon over both joints.
#[test]
fn fixed_tendons() {
    let with_tendon = |edit: &dyn Fn(&mut Model)| {
        check_with(
            |s| {
                s.ntendon = 1;
                s.nwrap = 2;
            },
            |m| {
                m.names_map.fill(-1);
                m.tendon_num[0] = 2;
                m.tendon_matid[0] = -1;
                m.wrap_type.fill(WRAP_JOINT);
                m.wrap_objid.copy_from_slice(&[0, 1]);
                edit(m);
            },
        )
    };
    assert_eq!(with_tendon(&|_| {}), Ok(()));
    fails_at(with_tendon(&|m| m.wrap_objid[1] = 2), "wrap_objid", Some(1));
    fails_at(
        with_tendon(&|m| m.wrap_type[1] = WRAP_SITE),
        "wrap_type",
        Some(1),
    );
    fails_at(with_tendon(&|m| m.tendon_num[0] = 3), "tendon_adr", Some(0));
    fails_at(with_tendon(&|m| m.tendon_num[0] = 1), "nwrap", None);
    fails_at(with_tendon(&|m| m.tendon_adr[0] = 1), "tendon_adr", Some(0));
}

#[test]
fn unsupported_and_displayed() {
    let p = fails_at(check(|m| m.body_plugin[1] = 3), "body_plugin", Some(1));
    assert_eq!(
        p,
        Problem::OutOfRange {
            found: 3,
            min: -1,
            end: 0
        }
    );
    let e = check_with(|s| s.nflexvert = 2, |_| {}).unwrap_err();
    assert_eq!(e.to_string(), "nflexvert: expected 0, found 2");
}

/// The MuJoCo-written blobs of `core/tests/data` pass in this build's precision too (this file
/// is also compiled by `mjrs-core-f32`, whose manifest sits beside `core/`).
#[test]
fn real_blobs_validate() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/tests/data");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|x| x != "mjb") {
            continue;
        }
        let blob = std::fs::read(&path).unwrap();
        let header = crate::mjb::read_header(&blob).unwrap();
        let mut buf = vec![0u8; header.model_bytes().unwrap()];
        if let Err(e) = crate::mjb::load(&blob, &mut buf) {
            panic!("{}: {e}", path.display());
        }
        n += 1;
    }
    assert!(n >= 10, "expected the blobs of core/tests/data");
}

/// A 2D flex of one triangle over the world and both bodies (vertices 0, 1, 2; edges 0-1, 1-2,
/// 2-0), with a three-node hierarchy when `bvh`; `edit` breaks it.
fn with_flex(bvh: bool, edit: impl FnOnce(&mut Model)) -> Check {
    check_with(
        |s| {
            s.nflex = 1;
            s.nflexvert = 3;
            s.nflexedge = 3;
            s.nflexelem = 1;
            s.nflexelemdata = 3;
            s.nflexshelldata = 2;
            s.nflexevpair = 1;
            s.neq = 1;
            s.nemax = 1;
            if bvh {
                s.nbvh = 3;
                s.nbvhdynamic = 3;
            }
        },
        |m| {
            m.names_map.fill(-1);
            m.flex_dim[0] = 2;
            m.flex_condim[0] = 3;
            m.flex_matid[0] = -1;
            m.flex_vertnum[0] = 3;
            m.flex_edgenum[0] = 3;
            m.flex_elemnum[0] = 1;
            m.flex_shellnum[0] = 1;
            m.flex_evpairnum[0] = 1;
            m.flex_texcoordadr[0] = -1;
            m.flex_vertbodyid.copy_from_slice(&[0, 1, 2]);
            m.flex_edge.copy_from_slice(&[0, 1, 1, 2, 2, 0]);
            m.flex_elem.copy_from_slice(&[0, 1, 2]);
            m.flex_shell.copy_from_slice(&[0, 1]);
            m.flex_evpair.copy_from_slice(&[0, 2]);
            m.flex_bvhadr[0] = -1;
            if bvh {
                m.flex_bvhadr[0] = 0;
                m.flex_bvhnum[0] = 3;
                m.bvh_depth.copy_from_slice(&[0, 1, 1]);
                m.bvh_child.copy_from_slice(&[1, 2, -1, -1, -1, -1]);
                m.bvh_nodeid.copy_from_slice(&[-1, 0, 0]);
            }
            m.eq_type[0] = EQ_FLEX;
            m.eq_obj1id[0] = 0;
            m.eq_obj2id[0] = -1;
            edit(m);
        },
    )
}

#[test]
fn flexes() {
    assert_eq!(with_flex(false, |_| {}), Ok(()));
    assert_eq!(with_flex(true, |_| {}), Ok(()));
    fails_at(with_flex(false, |m| m.flex_dim[0] = 0), "flex_dim", Some(0));
    fails_at(
        with_flex(false, |m| m.flex_condim[0] = 2),
        "flex_condim",
        Some(0),
    );
    fails_at(
        with_flex(false, |m| m.flex_selfcollide[0] = 5),
        "flex_selfcollide",
        Some(0),
    );
    fails_at(with_flex(false, |m| m.flex_dim[0] = 4), "flex_dim", Some(0));
    fails_at(
        with_flex(false, |m| m.flex_vertadr[0] = 1),
        "flex_vertadr",
        Some(0),
    );
    fails_at(
        with_flex(false, |m| m.flex_vertnum[0] = 4),
        "nflexvert",
        None,
    );
    fails_at(
        with_flex(false, |m| m.flex_vertnum[0] = -1),
        "flex_vertnum",
        Some(0),
    );
    fails_at(
        with_flex(false, |m| m.flex_edgeadr[0] = 2),
        "flex_edgeadr",
        Some(0),
    );
    fails_at(
        with_flex(false, |m| m.flex_edgenum[0] = 9),
        "nflexedge",
        None,
    );
    fails_at(
        with_flex(false, |m| m.flex_elemnum[0] = i32::MAX),
        "nflexelem",
        None,
    );
    fails_at(
        with_flex(false, |m| m.flex_elemdataadr[0] = -1),
        "flex_elemdataadr",
        Some(0),
    );
    fails_at(
        with_flex(false, |m| m.flex_shelldataadr[0] = -1),
        "flex_shelldataadr",
        Some(0),
    );
    fails_at(
        with_flex(false, |m| m.flex_shellnum[0] = 0),
        "flex_shelldataadr",
        Some(0),
    );
    fails_at(
        with_flex(false, |m| m.flex_evpairadr[0] = 1),
        "flex_evpairadr",
        Some(0),
    );
    fails_at(
        with_flex(false, |m| m.flex_texcoordadr[0] = 0),
        "nflextexcoord",
        None,
    );
    fails_at(
        with_flex(false, |m| m.flex_bvhadr[0] = 0),
        "flex_bvhadr",
        Some(0),
    );
    fails_at(
        with_flex(false, |m| m.flex_vertbodyid[2] = 3),
        "flex_vertbodyid",
        Some(2),
    );
    fails_at(
        with_flex(false, |m| m.flex_matid[0] = 0),
        "flex_matid",
        Some(0),
    );
    fails_at(
        with_flex(false, |m| m.flex_edge[3] = 3),
        "flex_edge",
        Some(3),
    );
    fails_at(
        with_flex(false, |m| m.flex_edge[1] = -1),
        "flex_edge",
        Some(1),
    );
    fails_at(
        with_flex(false, |m| m.flex_edge[1] = 0),
        "flex_edge",
        Some(0),
    );
    fails_at(
        with_flex(false, |m| m.flex_elem[2] = 3),
        "flex_elem",
        Some(2),
    );
    fails_at(
        with_flex(false, |m| m.flex_shell[1] = 5),
        "flex_shell",
        Some(1),
    );
    fails_at(
        with_flex(false, |m| m.flex_evpair[0] = 1),
        "flex_evpair",
        Some(0),
    );
    fails_at(
        with_flex(false, |m| m.flex_evpair[1] = 3),
        "flex_evpair",
        Some(1),
    );
    fails_at(
        with_flex(false, |m| m.eq_obj1id[0] = 1),
        "eq_obj1id",
        Some(0),
    );
    fails_at(
        with_flex(false, |m| m.eq_obj2id[0] = 2),
        "eq_obj2id",
        Some(0),
    );
    // hierarchies: after the static ones, leaves name elements of the flex, depth-first tree
    fails_at(
        with_flex(true, |m| m.flex_bvhnum[0] = 2),
        "nbvhdynamic",
        None,
    );
    fails_at(
        with_flex(true, |m| m.bvh_nodeid[2] = 1),
        "bvh_nodeid",
        Some(2),
    );
    fails_at(
        with_flex(true, |m| m.bvh_nodeid[2] = -2),
        "bvh_nodeid",
        Some(2),
    );
    fails_at(
        with_flex(true, |m| m.bvh_child[1] = 7),
        "bvh_child",
        Some(1),
    );
    fails_at(
        with_flex(true, |m| m.bvh_depth[1] = 0),
        "bvh_depth",
        Some(1),
    );
    let e = with_flex(false, |m| m.flex_edge[3] = 3).unwrap_err();
    assert_eq!(
        e.to_string(),
        "flex_edge[3]: 3 is outside the valid range 0..3"
    );
}

/// The vectorized range pre-check agrees with the element checks at every boundary.
#[test]
fn all_in_range_agrees_with_the_element_checks() {
    let values = [-2, -1, 0, 1, 4, 5, 6, i32::MAX, i32::MIN];
    for n in [0usize, 1, 5, 6, i32::MAX as usize] {
        for none_ok in [false, true] {
            for &v in &values {
                let each = if none_ok {
                    index_or_none("f", 0, v, n).is_ok()
                } else {
                    index("f", 0, v, n).is_ok()
                };
                assert_eq!(
                    all_in_range(&[v], n, none_ok),
                    each,
                    "{v} in {n} ({none_ok})"
                );
                assert_eq!(ids("f", &[v], n, none_ok).is_ok(), each);
            }
        }
    }
    assert!(all_in_range(&[], 0, false));
    // the slow path still names the first bad element
    assert_eq!(
        ids("f", &[0, 3, 9, -4], 4, false),
        Err(err("f", 2, out_of_range(9, 0, 4)))
    );
}

/// `Ok` in a build with `feature`, otherwise the refusal naming it at `field[index]`.
#[track_caller]
fn needs_feature(r: Check, built: bool, feature: &'static str, field: &str, index: Option<usize>) {
    if built {
        assert_eq!(r, Ok(()));
    } else {
        assert_eq!(
            fails_at(r, field, index),
            Problem::NeedsFeature(feature),
            "the refusal names the feature"
        );
    }
}

/// The optional parts of the core (Cargo features): a model that needs one passes in a build
/// with it and is refused, naming the feature, in a build without it (run both ways:
/// `cargo test -p mjrs-core --lib optional_parts` and the same with `--no-default-features`).
#[test]
fn optional_parts_refused_without_their_feature() {
    // the tiny model's spheres have contype and conaffinity 0: nothing collides
    assert_eq!(check(|_| {}), Ok(()));
    let colliding = |m: &mut Model| {
        m.geom_contype.fill(1);
        m.geom_conaffinity.fill(1);
    };
    needs_feature(
        check(colliding),
        cfg!(feature = "collision"),
        "collision",
        "geom_contype",
        None,
    );
    // a box meets a sphere through the box family
    let boxes = |m: &mut Model| {
        colliding(m);
        m.geom_type[1] = GEOM_BOX;
    };
    let (boxes_ok, missing) = if cfg!(feature = "collision") {
        (cfg!(feature = "collision-box"), "collision-box")
    } else {
        (false, "collision")
    };
    let field = if cfg!(feature = "collision") {
        "geom_type"
    } else {
        "geom_contype"
    };
    let index = cfg!(feature = "collision").then_some(1);
    needs_feature(check(boxes), boxes_ok, missing, field, index);
    let ellipsoids = |m: &mut Model| {
        colliding(m);
        m.geom_type.fill(GEOM_ELLIPSOID);
    };
    let convex_ok = cfg!(feature = "collision-convex") || !cfg!(feature = "collision");
    if cfg!(feature = "collision") {
        needs_feature(
            check(ellipsoids),
            convex_ok,
            "collision-convex",
            "geom_type",
            Some(0),
        );
    }
    // an explicit pair collides whatever the bits say
    let paired = check_with(
        |s| s.npair = 1,
        |m| {
            m.pair_geom1[0] = 0;
            m.pair_geom2[0] = 1;
            m.pair_dim[0] = 3;
            m.pair_signature[0] = (1 << 16) | 2;
        },
    );
    needs_feature(
        paired,
        cfg!(feature = "collision"),
        "collision",
        "npair",
        None,
    );
    let implicit = check(|m| m.opt.integrator = INT_IMPLICITFAST);
    needs_feature(
        implicit,
        cfg!(feature = "implicit"),
        "implicit",
        "opt.integrator",
        None,
    );
    let sensor = with_sensor(SENS_JOINTPOS, OBJ_JOINT, 0, 1, |_| {});
    needs_feature(sensor, cfg!(feature = "sensor"), "sensor", "nsensor", None);
    let flex = with_flex(false, |_| {});
    needs_feature(flex, cfg!(feature = "flex"), "flex", "nflex", None);
}
