//! Sensors: object and reference types and ids, dimension, data type, stage, and the layout
//! of `sensordata`.

use super::{err, expect, expect_size, index, object_count, rule, Check, Problem};
use crate::types::*;
use crate::Model;

pub(super) fn validate(m: &Model) -> Check {
    let mut adr = 0usize;
    for s in 0..m.nsensor {
        let ty = m.sensor_type[s];
        if ty == SENS_USER {
            user(m, s)?;
        } else if ty == SENS_PLUGIN {
            // dimension and instance: checked with the plugins
        } else {
            let spec = spec(ty).ok_or(err("sensor_type", s, Problem::BadEnum(i64::from(ty))))?;
            builtin(m, s, &spec)?;
        }
        expect("sensor_adr", s, m.sensor_adr[s], adr as i64)?;
        adr += m.sensor_dim[s] as usize;
        if adr > m.nsensordata {
            return Err(err(
                "sensor_dim",
                s,
                Problem::Span {
                    adr: i64::from(m.sensor_adr[s]),
                    num: i64::from(m.sensor_dim[s]),
                    len: m.nsensordata as i64,
                },
            ));
        }
    }
    expect_size("nsensordata", m.nsensordata as i64, adr as i64)
}

/// What a sensor may be attached to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Obj {
    /// Nothing (`OBJ_UNKNOWN`, id -1).
    Nothing,
    Site,
    /// A slide or hinge joint.
    ScalarJoint,
    BallJoint,
    LimitedJoint,
    Tendon,
    LimitedTendon,
    Actuator,
    /// A body only (subtree sensors).
    Body,
    /// Anything with a frame: (x)body, geom, site, camera.
    Frame,
    /// A body or a geom (distance sensors).
    BodyOrGeom,
}

/// What a sensor's reference may be.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ref {
    /// Nothing, or an object with a frame.
    OptionalFrame,
    Camera,
    BodyOrGeom,
}

/// What MuJoCo's compiler writes for a built-in sensor type.
struct Spec {
    dim: i32,
    datatype: i32,
    stage: i32,
    obj: Obj,
    reference: Ref,
}

/// The compiler's settings for built-in sensor type `ty` (not user, not plugin).
fn spec(ty: i32) -> Option<Spec> {
    use Obj::*;
    let (dim, datatype, stage, obj) = match ty {
        SENS_TOUCH => (1, DATATYPE_POSITIVE, STAGE_ACC, Site),
        SENS_ACCELEROMETER | SENS_FORCE | SENS_TORQUE => (3, DATATYPE_REAL, STAGE_ACC, Site),
        SENS_VELOCIMETER | SENS_GYRO => (3, DATATYPE_REAL, STAGE_VEL, Site),
        SENS_MAGNETOMETER => (3, DATATYPE_REAL, STAGE_POS, Site),
        SENS_RANGEFINDER => (1, DATATYPE_POSITIVE, STAGE_POS, Site),
        SENS_CAMPROJECTION => (2, DATATYPE_REAL, STAGE_POS, Site),
        SENS_JOINTPOS => (1, DATATYPE_REAL, STAGE_POS, ScalarJoint),
        SENS_JOINTVEL => (1, DATATYPE_REAL, STAGE_VEL, ScalarJoint),
        SENS_JOINTACTFRC => (1, DATATYPE_REAL, STAGE_ACC, ScalarJoint),
        SENS_TENDONPOS => (1, DATATYPE_REAL, STAGE_POS, Tendon),
        SENS_TENDONVEL => (1, DATATYPE_REAL, STAGE_VEL, Tendon),
        SENS_ACTUATORPOS => (1, DATATYPE_REAL, STAGE_POS, Actuator),
        SENS_ACTUATORVEL => (1, DATATYPE_REAL, STAGE_VEL, Actuator),
        SENS_ACTUATORFRC => (1, DATATYPE_REAL, STAGE_ACC, Actuator),
        SENS_BALLQUAT => (4, DATATYPE_QUATERNION, STAGE_POS, BallJoint),
        SENS_BALLANGVEL => (3, DATATYPE_REAL, STAGE_VEL, BallJoint),
        SENS_JOINTLIMITPOS => (1, DATATYPE_REAL, STAGE_POS, LimitedJoint),
        SENS_JOINTLIMITVEL => (1, DATATYPE_REAL, STAGE_VEL, LimitedJoint),
        SENS_JOINTLIMITFRC => (1, DATATYPE_REAL, STAGE_ACC, LimitedJoint),
        SENS_TENDONLIMITPOS => (1, DATATYPE_REAL, STAGE_POS, LimitedTendon),
        SENS_TENDONLIMITVEL => (1, DATATYPE_REAL, STAGE_VEL, LimitedTendon),
        SENS_TENDONLIMITFRC => (1, DATATYPE_REAL, STAGE_ACC, LimitedTendon),
        SENS_FRAMEPOS => (3, DATATYPE_REAL, STAGE_POS, Frame),
        SENS_FRAMEQUAT => (4, DATATYPE_QUATERNION, STAGE_POS, Frame),
        SENS_FRAMEXAXIS | SENS_FRAMEYAXIS | SENS_FRAMEZAXIS => (3, DATATYPE_AXIS, STAGE_POS, Frame),
        SENS_FRAMELINVEL | SENS_FRAMEANGVEL => (3, DATATYPE_REAL, STAGE_VEL, Frame),
        SENS_FRAMELINACC | SENS_FRAMEANGACC => (3, DATATYPE_REAL, STAGE_ACC, Frame),
        SENS_SUBTREECOM => (3, DATATYPE_REAL, STAGE_POS, Body),
        SENS_SUBTREELINVEL | SENS_SUBTREEANGMOM => (3, DATATYPE_REAL, STAGE_VEL, Body),
        SENS_GEOMDIST => (1, DATATYPE_POSITIVE, STAGE_POS, BodyOrGeom),
        SENS_GEOMNORMAL => (3, DATATYPE_AXIS, STAGE_POS, BodyOrGeom),
        SENS_GEOMFROMTO => (6, DATATYPE_REAL, STAGE_POS, BodyOrGeom),
        SENS_CLOCK => (1, DATATYPE_REAL, STAGE_POS, Nothing),
        _ => return None,
    };
    let reference = match ty {
        SENS_CAMPROJECTION => Ref::Camera,
        SENS_GEOMDIST | SENS_GEOMNORMAL | SENS_GEOMFROMTO => Ref::BodyOrGeom,
        _ => Ref::OptionalFrame,
    };
    Some(Spec {
        dim,
        datatype,
        stage,
        obj,
        reference,
    })
}

fn is_frame_type(objtype: i32) -> bool {
    matches!(
        objtype,
        OBJ_BODY | OBJ_XBODY | OBJ_GEOM | OBJ_SITE | OBJ_CAMERA
    )
}

/// A built-in sensor matches its type's spec.
fn builtin(m: &Model, s: usize, spec: &Spec) -> Check {
    expect("sensor_dim", s, m.sensor_dim[s], i64::from(spec.dim))?;
    expect(
        "sensor_datatype",
        s,
        m.sensor_datatype[s],
        i64::from(spec.datatype),
    )?;
    expect(
        "sensor_needstage",
        s,
        m.sensor_needstage[s],
        i64::from(spec.stage),
    )?;
    object(m, s, spec.obj)?;
    reference(m, s, spec.reference)?;
    let same = m.sensor_objtype[s] == m.sensor_reftype[s] && m.sensor_objid[s] == m.sensor_refid[s];
    rule(
        spec.obj != Obj::BodyOrGeom || !same,
        "sensor_refid",
        s,
        "a distance sensor needs two different objects",
    )
}

/// `sensor_objtype`/`sensor_objid` of sensor `s` fit `obj`.
fn object(m: &Model, s: usize, obj: Obj) -> Check {
    let (ty, id) = (m.sensor_objtype[s], m.sensor_objid[s]);
    if obj == Obj::Nothing {
        expect("sensor_objtype", s, ty, i64::from(OBJ_UNKNOWN))?;
        return expect("sensor_objid", s, id, -1);
    }
    let type_ok = match obj {
        Obj::Site => ty == OBJ_SITE,
        Obj::ScalarJoint | Obj::BallJoint | Obj::LimitedJoint => ty == OBJ_JOINT,
        Obj::Tendon | Obj::LimitedTendon => ty == OBJ_TENDON,
        Obj::Actuator => ty == OBJ_ACTUATOR,
        Obj::Body => ty == OBJ_BODY,
        Obj::Frame => is_frame_type(ty),
        Obj::BodyOrGeom => ty == OBJ_BODY || ty == OBJ_GEOM,
        Obj::Nothing => false,
    };
    if !type_ok {
        return Err(err("sensor_objtype", s, Problem::BadEnum(i64::from(ty))));
    }
    let n = object_count(m, ty).unwrap_or(0);
    let id = index("sensor_objid", s, id, n)?;
    let (fits, text) = match obj {
        Obj::ScalarJoint => (
            matches!(m.jnt_type[id], JNT_SLIDE | JNT_HINGE),
            "the joint must be a slide or a hinge",
        ),
        Obj::BallJoint => (m.jnt_type[id] == JNT_BALL, "the joint must be a ball joint"),
        Obj::LimitedJoint => (m.jnt_limited[id] != 0, "the joint must be limited"),
        Obj::LimitedTendon => (m.tendon_limited[id] != 0, "the tendon must be limited"),
        _ => (true, ""),
    };
    rule(fits, "sensor_objid", s, text)
}

/// `sensor_reftype`/`sensor_refid` of sensor `s` fit `reference`.
fn reference(m: &Model, s: usize, reference: Ref) -> Check {
    let (ty, id) = (m.sensor_reftype[s], m.sensor_refid[s]);
    let type_ok = match reference {
        Ref::OptionalFrame => ty == OBJ_UNKNOWN || is_frame_type(ty),
        Ref::Camera => ty == OBJ_CAMERA,
        Ref::BodyOrGeom => ty == OBJ_BODY || ty == OBJ_GEOM,
    };
    if !type_ok {
        return Err(err("sensor_reftype", s, Problem::BadEnum(i64::from(ty))));
    }
    if ty == OBJ_UNKNOWN {
        return expect("sensor_refid", s, id, -1);
    }
    let id = index("sensor_refid", s, id, object_count(m, ty).unwrap_or(0))?;
    if reference == Ref::Camera {
        rule(
            m.cam_resolution[2 * id] != 0 && m.cam_resolution[2 * id + 1] != 0,
            "sensor_refid",
            s,
            "a camera projection sensor needs a camera with a resolution",
        )?;
    }
    Ok(())
}

/// A user sensor: any object (or none), any non-negative dimension that fits its data type.
fn user(m: &Model, s: usize) -> Check {
    let dim = m.sensor_dim[s];
    if dim < 0 {
        return Err(err(
            "sensor_dim",
            s,
            Problem::OutOfRange {
                found: i64::from(dim),
                min: 0,
                end: i64::from(i32::MAX),
            },
        ));
    }
    let datatype = m.sensor_datatype[s];
    super::enum_in(
        "sensor_datatype",
        s,
        datatype,
        DATATYPE_REAL,
        DATATYPE_QUATERNION,
    )?;
    rule(
        (datatype != DATATYPE_AXIS || dim == 3) && (datatype != DATATYPE_QUATERNION || dim == 4),
        "sensor_dim",
        s,
        "axis data needs 3 values, quaternion data 4",
    )?;
    super::enum_in(
        "sensor_needstage",
        s,
        m.sensor_needstage[s],
        STAGE_NONE,
        STAGE_ACC,
    )?;
    let (ty, id) = (m.sensor_objtype[s], m.sensor_objid[s]);
    if ty == OBJ_UNKNOWN {
        expect("sensor_objid", s, id, -1)?;
    } else {
        let n =
            object_count(m, ty).ok_or(err("sensor_objtype", s, Problem::BadEnum(i64::from(ty))))?;
        index("sensor_objid", s, id, n)?;
    }
    reference(m, s, Ref::OptionalFrame)
}
