//! Validation rules on real models: `kitchen_sink.mjb` (see `tests/data/README.md`) passes,
//! and breaking one field of a mesh, a height field, a skin, a tendon path, a sensor, ... gives
//! the specific error.

use std::path::Path;

use mjrs_core::types::*;
use mjrs_core::validate::{validate, Problem, ValidationError};
use mjrs_core::{mjb, Model};

fn blob(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    std::fs::read(path).unwrap()
}

/// Loads `name`, applies `edit`, validates.
fn check(name: &str, edit: impl FnOnce(&mut Model)) -> Result<(), ValidationError> {
    let blob = blob(name);
    let mut buf = vec![0u8; mjb::read_header(&blob).unwrap().model_bytes().unwrap()];
    let mut m = mjb::load(&blob, &mut buf).unwrap();
    edit(&mut m);
    validate(&m)
}

#[track_caller]
fn fails_at(r: Result<(), ValidationError>, field: &str) -> ValidationError {
    let e = r.expect_err("validation should fail");
    assert_eq!(e.field, field, "{e}");
    e
}

const SINK: &str = "kitchen_sink.mjb";

fn find(v: &[i32], x: i32) -> usize {
    v.iter().position(|&y| y == x).unwrap()
}

#[test]
fn kitchen_sink_is_valid_and_covers_the_areas() {
    check(SINK, |m| {
        assert!(m.nmesh == 2 && m.nmeshgraph > 0 && m.nhfield == 1 && m.nskin == 1);
        assert!(m.ntendon == 2 && m.nmocap == 1 && m.npair == 1 && m.nexclude == 1);
        assert!(m.nu == 11 && m.na == 5 && m.nsensor == 43 && m.neq == 5);
        assert!(m.nnumeric == 1 && m.ntext == 1 && m.ntuple == 1 && m.nbvh > 0);
    })
    .unwrap();
}

#[test]
fn meshes() {
    fails_at(
        check(SINK, |m| m.mesh_face[0] = m.mesh_vertnum[0]),
        "mesh_face",
    );
    fails_at(
        check(SINK, |m| m.mesh_facenormal[2] = -1),
        "mesh_facenormal",
    );
    fails_at(check(SINK, |m| m.mesh_vertnum[1] = 1000), "mesh_vertadr");
    fails_at(check(SINK, |m| m.mesh_facenum[0] = -1), "mesh_facenum");
    fails_at(
        check(SINK, |m| m.mesh_texcoordadr[0] = 0),
        "mesh_texcoordadr",
    );
}

#[test]
fn mesh_graphs() {
    let adr = |m: &Model| m.mesh_graphadr[0] as usize;
    // header: numvert, numface
    fails_at(
        check(SINK, |m| {
            let i = adr(m);
            m.mesh_graph[i] = 0
        }),
        "mesh_graph",
    );
    let e = check(SINK, |m| {
        let last = m.mesh_graphadr[1] as usize;
        m.mesh_graph[last + 1] += 1;
    });
    fails_at(e, "mesh_graphadr");
    fails_at(check(SINK, |m| m.mesh_graphadr[1] += 1), "mesh_graphadr");
    // vert_edgeadr, vert_globalid
    fails_at(
        check(SINK, |m| {
            let i = adr(m) + 2;
            m.mesh_graph[i] = -1
        }),
        "mesh_graph",
    );
    let e = check(SINK, |m| {
        let nv = m.mesh_graph[adr(m)] as usize;
        {
            let i = adr(m) + 2 + nv;
            m.mesh_graph[i] = m.mesh_vertnum[0]
        };
    });
    fails_at(e, "mesh_graph");
    // the last neighbour list must end with -1
    let e = check(SINK, |m| {
        let (nv, nf) = (
            m.mesh_graph[adr(m)] as usize,
            m.mesh_graph[adr(m) + 1] as usize,
        );
        {
            let i = adr(m) + 2 + 3 * nv + 3 * nf - 1;
            m.mesh_graph[i] = 0
        };
    });
    fails_at(e, "mesh_graph");
}

#[test]
fn bounding_volume_hierarchies() {
    // the hfield-and-plane world body has a hierarchy: swap the root's children
    let root = |m: &Model| m.body_bvhadr[0] as usize;
    let e = check(SINK, |m| {
        let r = 2 * root(m);
        m.bvh_child.swap(r, r + 1)
    });
    fails_at(e, "bvh_child");
    fails_at(
        check(SINK, |m| {
            let i = 2 * root(m);
            m.bvh_child[i] = 100
        }),
        "bvh_child",
    );
    fails_at(
        check(SINK, |m| {
            let i = root(m);
            m.bvh_depth[i] = 1
        }),
        "bvh_depth",
    );
    fails_at(
        check(SINK, |m| {
            let i = root(m);
            m.bvh_nodeid[i] = 0
        }),
        "bvh_nodeid",
    );
    // a leaf of the world's hierarchy that points at a geom of another body
    let e = check(SINK, |m| {
        let leaf = root(m) + 1;
        m.bvh_nodeid[leaf] = m.ngeom as i32 - 1;
    });
    fails_at(e, "bvh_nodeid");
    fails_at(check(SINK, |m| m.body_bvhnum[0] += 1), "body_bvhnum");
    // mesh hierarchies: leaves are faces of the mesh
    let e = check(SINK, |m| {
        let a = m.mesh_bvhadr[0] as usize;
        let n = m.mesh_bvhnum[0] as usize;
        let leaf = (a..a + n).find(|&i| m.bvh_nodeid[i] >= 0).unwrap();
        m.bvh_nodeid[leaf] = m.mesh_facenum[0];
    });
    fails_at(e, "bvh_nodeid");
}

#[test]
fn height_fields_textures_materials_skins() {
    // one row is MuJoCo's (a grid without cells), none is not
    check(SINK, |m| m.hfield_nrow[0] = 1).unwrap_or_else(|e| panic!("one row: {e:?}"));
    let e = fails_at(check(SINK, |m| m.hfield_nrow[0] = 0), "hfield_nrow");
    assert!(matches!(e.problem, Problem::OutOfRange { min: 1, .. }));
    fails_at(check(SINK, |m| m.hfield_ncol[0] = 100), "hfield_adr");
    fails_at(check(SINK, |m| m.hfield_adr[0] = -1), "hfield_adr");
    fails_at(check(SINK, |m| m.tex_type[0] = 3), "tex_type");
    fails_at(check(SINK, |m| m.tex_height[0] = 1000), "tex_adr");
    fails_at(check(SINK, |m| m.tex_width[1] = -8), "tex_width");
    let huge = |m: &mut Model| {
        m.tex_width[0] = i32::MAX;
        m.tex_height[0] = i32::MAX;
    };
    fails_at(check(SINK, huge), "tex_adr");
    let huge = |m: &mut Model| {
        m.hfield_nrow[0] = i32::MAX;
        m.hfield_ncol[0] = i32::MAX;
    };
    fails_at(check(SINK, huge), "hfield_adr");
    fails_at(check(SINK, |m| m.mat_texid[0] = 5), "mat_texid");
    fails_at(check(SINK, |m| m.skin_face[0] = 4), "skin_face");
    fails_at(check(SINK, |m| m.skin_bonevertid[3] = 4), "skin_bonevertid");
    fails_at(
        check(SINK, |m| m.skin_bonebodyid[0] = -1),
        "skin_bonebodyid",
    );
    fails_at(check(SINK, |m| m.skin_vertnum[0] = 2), "skin_face");
    fails_at(
        check(SINK, |m| m.skin_bonevertnum[0] = 5),
        "skin_bonevertadr",
    );
}

#[test]
fn pairs_and_excludes() {
    fails_at(check(SINK, |m| m.pair_geom2[0] = -1), "pair_geom2");
    fails_at(check(SINK, |m| m.pair_signature[0] += 1), "pair_signature");
    fails_at(check(SINK, |m| m.pair_dim[0] = 5), "pair_dim");
    let e = check(SINK, |m| {
        let s = m.exclude_signature[0] as u32;
        m.exclude_signature[0] = ((s & 0xFFFF) << 16 | (s >> 16)) as i32;
    });
    fails_at(e, "exclude_signature");
    fails_at(
        check(SINK, |m| m.exclude_signature[0] = 0x7FFF_0000),
        "exclude_signature",
    );
}

/// The spatial tendon of the kitchen sink:
/// site, site, cylinder (side site), site, pulley, site, cylinder, site.
#[test]
fn spatial_tendon_paths() {
    let w = |m: &Model| m.tendon_adr[1] as usize;
    assert_eq!(check(SINK, |m| assert_eq!(m.tendon_num[1], 8)), Ok(()));
    // a geom must sit between two sites
    fails_at(
        check(SINK, |m| {
            let i = w(m) + 1;
            m.wrap_type[i] = WRAP_PULLEY
        }),
        "wrap_type",
    );
    fails_at(
        check(SINK, |m| {
            let i = w(m) + 4;
            m.wrap_objid[i] = 0
        }),
        "wrap_objid",
    );
    let e = check(SINK, |m| {
        {
            let i = w(m) + 3;
            m.wrap_type[i] = WRAP_PULLEY
        };
        {
            let i = w(m) + 3;
            m.wrap_objid[i] = -1
        };
    });
    fails_at(e, "wrap_type");
    // the geom kind must match the wrap kind
    fails_at(
        check(SINK, |m| {
            let i = w(m) + 2;
            m.wrap_type[i] = WRAP_SPHERE
        }),
        "geom_type",
    );
    fails_at(
        check(SINK, |m| {
            let i = w(m) + 2;
            m.wrap_objid[i] = 0
        }),
        "geom_type",
    );
    // side sites: whole numbers naming a site, or -1
    fails_at(
        check(SINK, |m| {
            let i = w(m) + 2;
            m.wrap_prm[i] = 0.5
        }),
        "wrap_prm",
    );
    fails_at(
        check(SINK, |m| {
            let i = w(m) + 2;
            m.wrap_prm[i] = 1e9
        }),
        "wrap_prm",
    );
    fails_at(
        check(SINK, |m| {
            let i = w(m) + 2;
            m.wrap_prm[i] = f64::NAN as _
        }),
        "wrap_prm",
    );
    assert_eq!(
        check(SINK, |m| {
            let i = w(m) + 2;
            m.wrap_prm[i] = -1.0
        }),
        Ok(())
    );
    // consecutive pulleys, a final pulley
    fails_at(
        check(SINK, |m| {
            let i = w(m) + 5;
            m.wrap_type[i] = WRAP_PULLEY
        }),
        "wrap_objid",
    );
    let e = check(SINK, |m| {
        {
            let i = w(m) + 5;
            m.wrap_type[i] = WRAP_PULLEY
        };
        {
            let i = w(m) + 5;
            m.wrap_objid[i] = -1
        };
    });
    fails_at(e, "wrap_type");
    let e = check(SINK, |m| {
        {
            let i = w(m) + 7;
            m.wrap_type[i] = WRAP_PULLEY
        };
        {
            let i = w(m) + 7;
            m.wrap_objid[i] = -1
        };
    });
    fails_at(e, "wrap_type");
    // a repeated site, joints in a spatial path, unknown wrap types
    let e = check(SINK, |m| {
        let i = w(m) + 1;
        m.wrap_objid[i] = m.wrap_objid[w(m)]
    });
    fails_at(e, "wrap_objid");
    fails_at(
        check(SINK, |m| {
            let i = w(m) + 1;
            m.wrap_type[i] = WRAP_JOINT
        }),
        "wrap_type",
    );
    fails_at(
        check(SINK, |m| {
            let i = w(m) + 1;
            m.wrap_type[i] = WRAP_NONE
        }),
        "wrap_type",
    );
    fails_at(
        check(SINK, |m| {
            let i = w(m) + 1;
            m.wrap_type[i] = 6
        }),
        "wrap_type",
    );
    fails_at(check(SINK, |m| m.tendon_num[1] = 1), "tendon_num");
}

#[test]
fn actuators() {
    let crank = 6; // the slider-crank actuator
    assert_eq!(
        check(SINK, |m| assert_eq!(
            m.actuator_trntype[crank],
            TRN_SLIDERCRANK
        )),
        Ok(())
    );
    fails_at(
        check(SINK, |m| m.actuator_trnid[2 * crank + 1] = -1),
        "actuator_trnid",
    );
    let site = 7; // site transmission with a reference site
    assert_eq!(check(SINK, |m| m.actuator_trnid[2 * site + 1] = -1), Ok(()));
    fails_at(
        check(SINK, |m| m.actuator_trnid[2 * site + 1] = -2),
        "actuator_trnid",
    );
    let user = 9; // user dynamics with two activations
    assert_eq!(
        check(SINK, |m| assert_eq!(m.actuator_actnum[user], 2)),
        Ok(())
    );
    fails_at(
        check(SINK, |m| m.actuator_actnum[user] = 1),
        "actuator_actadr",
    );
    fails_at(
        check(SINK, |m| m.actuator_actadr[user] += 1),
        "actuator_actadr",
    );
    fails_at(
        check(SINK, |m| m.actuator_dyntype[user] = DYN_FILTER),
        "actuator_actnum",
    );
}

#[test]
fn sensors() {
    let by_type = |m: &Model, t: i32| find(&m.sensor_type, t);
    let e = check(SINK, |m| {
        let s = by_type(m, SENS_CAMPROJECTION);
        let cam = m.sensor_refid[s] as usize;
        m.cam_resolution[2 * cam] = 0;
    });
    fails_at(e, "sensor_refid");
    let e = check(SINK, |m| {
        let s = by_type(m, SENS_CAMPROJECTION);
        m.sensor_reftype[s] = OBJ_SITE;
    });
    fails_at(e, "sensor_reftype");
    let e = check(SINK, |m| {
        let s = by_type(m, SENS_JOINTLIMITPOS);
        let j = m.sensor_objid[s] as usize;
        m.jnt_limited[j] = 0;
    });
    fails_at(e, "sensor_objid");
    let e = check(SINK, |m| {
        let s = by_type(m, SENS_GEOMDIST);
        m.sensor_objid[s] = m.sensor_refid[s];
        m.sensor_objtype[s] = m.sensor_reftype[s];
    });
    fails_at(e, "sensor_refid");
    let e = check(SINK, |m| {
        let s = by_type(m, SENS_CLOCK);
        m.sensor_objid[s] = 0;
    });
    fails_at(e, "sensor_objid");
    let e = check(SINK, |m| {
        let s = by_type(m, SENS_USER);
        m.sensor_objtype[s] = 99;
    });
    fails_at(e, "sensor_objtype");
    let e = check(SINK, |m| {
        let s = by_type(m, SENS_FRAMEQUAT);
        m.sensor_datatype[s] = DATATYPE_REAL;
    });
    fails_at(e, "sensor_datatype");
    fails_at(check(SINK, |m| m.sensor_dim[0] = 2), "sensor_dim");
}

#[test]
fn equality_and_custom() {
    fails_at(check(SINK, |m| m.eq_obj2id[0] = -1), "eq_obj2id");
    assert_eq!(check(SINK, |m| m.eq_type[4] = EQ_JOINT), Ok(())); // tendon 0 -> joint 0
    fails_at(check(SINK, |m| m.eq_obj1id[4] = 2), "eq_obj1id");
    fails_at(
        check(SINK, |m| m.tuple_objtype[0] = OBJ_UNKNOWN),
        "tuple_objtype",
    );
    fails_at(
        check(SINK, |m| m.tuple_objid[1] = m.ngeom as i32),
        "tuple_objid",
    );
    fails_at(check(SINK, |m| m.tuple_size[0] = 3), "tuple_adr");
    fails_at(check(SINK, |m| m.numeric_size[0] = 4), "numeric_adr");
    let e = check(SINK, |m| {
        let last = m.text_size[0] as usize - 1;
        m.text_data[last] = b'!';
    });
    fails_at(e, "text_size");
    fails_at(
        check(SINK, |m| m.mesh_pathadr[0] = m.npaths as i32),
        "mesh_pathadr",
    );
}

#[test]
fn mocap_and_free_joints() {
    let target = |m: &Model| m.body_mocapid.iter().position(|&i| i == 0).unwrap();
    fails_at(
        check(SINK, |m| {
            let i = target(m);
            m.body_mocapid[i] = 1
        }),
        "body_mocapid",
    );
    fails_at(check(SINK, |m| m.body_mocapid[0] = 0), "body_mocapid");
    let e = check(SINK, |m| {
        let free = find(&m.jnt_type, JNT_FREE);
        let b = m.jnt_bodyid[free] as usize;
        m.body_parentid[b] = 1;
    });
    assert!(e.is_err());
}
