//! The keyword tables of MJCF (`xml_native_reader.cc`'s `*_map`): keyword and value, one table
//! each. The reader maps keywords to values through them and the writer values back to
//! keywords, so a value written is always a keyword the reader reads.

use mjrs_core::types::*;

use crate::spec::{builtin, mark};

/// A keyword table: (keyword, value).
pub type Keywords = &'static [(&'static str, i32)];

/// `bool_map`.
pub const BOOL: Keywords = &[("false", 0), ("true", 1)];
/// `coordinate_map` (only `local` is still read).
pub const COORDINATE: Keywords = &[("local", 0), ("global", 1)];
/// `angle_map`.
pub const ANGLE: Keywords = &[("radian", 0), ("degree", 1)];
/// `enable_map`.
pub const ENABLE: Keywords = &[("disable", 0), ("enable", 1)];
/// `TFAuto_map` (for `compiler/inertiafromgeom` and the `limited` attributes).
pub const TFAUTO: Keywords = &[("false", 0), ("true", 1), ("auto", 2)];
/// `joint_map`.
pub const JOINT: Keywords = &[
    ("free", JNT_FREE),
    ("ball", JNT_BALL),
    ("slide", JNT_SLIDE),
    ("hinge", JNT_HINGE),
];
/// `geom_map`.
pub const GEOM: Keywords = &[
    ("plane", GEOM_PLANE),
    ("hfield", GEOM_HFIELD),
    ("sphere", GEOM_SPHERE),
    ("capsule", GEOM_CAPSULE),
    ("ellipsoid", GEOM_ELLIPSOID),
    ("cylinder", GEOM_CYLINDER),
    ("box", GEOM_BOX),
    ("mesh", GEOM_MESH),
    ("sdf", GEOM_SDF),
];
/// `camlight_map`.
pub const CAMLIGHT: Keywords = &[
    ("fixed", CAMLIGHT_FIXED),
    ("track", CAMLIGHT_TRACK),
    ("trackcom", CAMLIGHT_TRACKCOM),
    ("targetbody", CAMLIGHT_TARGETBODY),
    ("targetbodycom", CAMLIGHT_TARGETBODYCOM),
];
/// `fluid_map`.
pub const FLUID: Keywords = &[("none", 0), ("ellipsoid", 1)];
/// `equality_map`, for the element names.
pub const EQUALITY: Keywords = &[
    ("connect", EQ_CONNECT),
    ("weld", EQ_WELD),
    ("joint", EQ_JOINT),
    ("tendon", EQ_TENDON),
    ("flex", EQ_FLEX),
    ("distance", EQ_DISTANCE),
];
/// The equality elements the writer writes: the first five of [`EQUALITY`], because the reader
/// refuses distance equalities, so no spec read from MJCF holds one.
pub const EQUALITY_WRITTEN: Keywords = EQUALITY.split_at(5).0;
/// `dyn_map`.
pub const DYN: Keywords = &[
    ("none", DYN_NONE),
    ("integrator", DYN_INTEGRATOR),
    ("filter", DYN_FILTER),
    ("filterexact", DYN_FILTEREXACT),
    ("muscle", DYN_MUSCLE),
    ("user", DYN_USER),
];
/// `gain_map`.
pub const GAIN: Keywords = &[
    ("fixed", GAIN_FIXED),
    ("affine", GAIN_AFFINE),
    ("muscle", GAIN_MUSCLE),
    ("user", GAIN_USER),
];
/// `bias_map`.
pub const BIAS: Keywords = &[
    ("none", BIAS_NONE),
    ("affine", BIAS_AFFINE),
    ("muscle", BIAS_MUSCLE),
    ("user", BIAS_USER),
];
/// `integrator_map`.
pub const INTEGRATOR: Keywords = &[
    ("Euler", INT_EULER),
    ("RK4", INT_RK4),
    ("implicit", INT_IMPLICIT),
    ("implicitfast", INT_IMPLICITFAST),
];
/// `cone_map`.
pub const CONE: Keywords = &[("pyramidal", CONE_PYRAMIDAL), ("elliptic", CONE_ELLIPTIC)];
/// `jac_map`.
pub const JACOBIAN: Keywords = &[
    ("dense", JAC_DENSE),
    ("sparse", JAC_SPARSE),
    ("auto", JAC_AUTO),
];
/// `solver_map`.
pub const SOLVER: Keywords = &[("PGS", SOL_PGS), ("CG", SOL_CG), ("Newton", SOL_NEWTON)];
/// `lrmode_map`.
pub const LRMODE: Keywords = &[
    ("none", LRMODE_NONE),
    ("muscle", LRMODE_MUSCLE),
    ("muscleuser", LRMODE_MUSCLEUSER),
    ("all", LRMODE_ALL),
];
/// `texture_map`.
pub const TEXTURE: Keywords = &[
    ("2d", TEXTURE_2D),
    ("cube", TEXTURE_CUBE),
    ("skybox", TEXTURE_SKYBOX),
];
/// `builtin_map`.
pub const BUILTIN: Keywords = &[
    ("none", builtin::NONE),
    ("gradient", builtin::GRADIENT),
    ("checker", builtin::CHECKER),
    ("flat", builtin::FLAT),
];
/// `mark_map`.
pub const MARK: Keywords = &[
    ("none", mark::NONE),
    ("edge", mark::EDGE),
    ("cross", mark::CROSS),
    ("random", mark::RANDOM),
];
/// `stage_map`.
pub const STAGE: Keywords = &[
    ("none", STAGE_NONE),
    ("pos", STAGE_POS),
    ("vel", STAGE_VEL),
    ("acc", STAGE_ACC),
];
/// `datatype_map`.
pub const DATATYPE: Keywords = &[
    ("real", DATATYPE_REAL),
    ("positive", DATATYPE_POSITIVE),
    ("axis", DATATYPE_AXIS),
    ("quaternion", DATATYPE_QUATERNION),
];

/// `option/flag` attributes that disable a feature when set to `disable`.
pub const DISABLE_FLAGS: Keywords = &[
    ("constraint", DSBL_CONSTRAINT),
    ("equality", DSBL_EQUALITY),
    ("frictionloss", DSBL_FRICTIONLOSS),
    ("limit", DSBL_LIMIT),
    ("contact", DSBL_CONTACT),
    ("passive", DSBL_PASSIVE),
    ("gravity", DSBL_GRAVITY),
    ("clampctrl", DSBL_CLAMPCTRL),
    ("warmstart", DSBL_WARMSTART),
    ("filterparent", DSBL_FILTERPARENT),
    ("actuation", DSBL_ACTUATION),
    ("refsafe", DSBL_REFSAFE),
    ("sensor", DSBL_SENSOR),
    ("midphase", DSBL_MIDPHASE),
    ("eulerdamp", DSBL_EULERDAMP),
];
/// `option/flag` attributes that enable a feature when set to `enable`.
pub const ENABLE_FLAGS: Keywords = &[
    ("override", ENBL_OVERRIDE),
    ("energy", ENBL_ENERGY),
    ("fwdinv", ENBL_FWDINV),
    ("invdiscrete", ENBL_INVDISCRETE),
    ("multiccd", ENBL_MULTICCD),
    ("island", ENBL_ISLAND),
];

/// Sensors attached to one object named by one attribute: element, type, object type,
/// attribute.
pub const SIMPLE_SENSORS: &[(&str, i32, i32, &str)] = &[
    ("touch", SENS_TOUCH, OBJ_SITE, "site"),
    ("accelerometer", SENS_ACCELEROMETER, OBJ_SITE, "site"),
    ("velocimeter", SENS_VELOCIMETER, OBJ_SITE, "site"),
    ("gyro", SENS_GYRO, OBJ_SITE, "site"),
    ("force", SENS_FORCE, OBJ_SITE, "site"),
    ("torque", SENS_TORQUE, OBJ_SITE, "site"),
    ("magnetometer", SENS_MAGNETOMETER, OBJ_SITE, "site"),
    ("rangefinder", SENS_RANGEFINDER, OBJ_SITE, "site"),
    ("jointpos", SENS_JOINTPOS, OBJ_JOINT, "joint"),
    ("jointvel", SENS_JOINTVEL, OBJ_JOINT, "joint"),
    ("tendonpos", SENS_TENDONPOS, OBJ_TENDON, "tendon"),
    ("tendonvel", SENS_TENDONVEL, OBJ_TENDON, "tendon"),
    ("actuatorpos", SENS_ACTUATORPOS, OBJ_ACTUATOR, "actuator"),
    ("actuatorvel", SENS_ACTUATORVEL, OBJ_ACTUATOR, "actuator"),
    ("actuatorfrc", SENS_ACTUATORFRC, OBJ_ACTUATOR, "actuator"),
    ("jointactuatorfrc", SENS_JOINTACTFRC, OBJ_JOINT, "joint"),
    ("ballquat", SENS_BALLQUAT, OBJ_JOINT, "joint"),
    ("ballangvel", SENS_BALLANGVEL, OBJ_JOINT, "joint"),
    ("jointlimitpos", SENS_JOINTLIMITPOS, OBJ_JOINT, "joint"),
    ("jointlimitvel", SENS_JOINTLIMITVEL, OBJ_JOINT, "joint"),
    ("jointlimitfrc", SENS_JOINTLIMITFRC, OBJ_JOINT, "joint"),
    ("tendonlimitpos", SENS_TENDONLIMITPOS, OBJ_TENDON, "tendon"),
    ("tendonlimitvel", SENS_TENDONLIMITVEL, OBJ_TENDON, "tendon"),
    ("tendonlimitfrc", SENS_TENDONLIMITFRC, OBJ_TENDON, "tendon"),
    ("subtreecom", SENS_SUBTREECOM, OBJ_BODY, "body"),
    ("subtreelinvel", SENS_SUBTREELINVEL, OBJ_BODY, "body"),
    ("subtreeangmom", SENS_SUBTREEANGMOM, OBJ_BODY, "body"),
];

/// Frame sensors: element, type, whether a reference frame may be given.
pub const FRAME_SENSORS: &[(&str, i32, bool)] = &[
    ("framepos", SENS_FRAMEPOS, true),
    ("framequat", SENS_FRAMEQUAT, true),
    ("framexaxis", SENS_FRAMEXAXIS, true),
    ("frameyaxis", SENS_FRAMEYAXIS, true),
    ("framezaxis", SENS_FRAMEZAXIS, true),
    ("framelinvel", SENS_FRAMELINVEL, true),
    ("frameangvel", SENS_FRAMEANGVEL, true),
    ("framelinacc", SENS_FRAMELINACC, false),
    ("frameangacc", SENS_FRAMEANGACC, false),
];
