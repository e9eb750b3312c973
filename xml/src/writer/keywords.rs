//! The keyword tables of MJCF (`xml_native_reader.cc`'s `*_map`), from value to keyword.
//!
//! They repeat the reader's private tables (which the writer cannot reach): the two must list
//! the same keywords.

use mjrs_core::types::*;

use crate::spec::{builtin, mark};

/// A keyword table: (keyword, value).
pub type Keywords = &'static [(&'static str, i32)];

/// `TFAuto_map` (for `compiler/inertiafromgeom`).
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
];
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

/// Sensors attached to one object named by one attribute: type, element, attribute.
pub const SIMPLE_SENSORS: &[(i32, &str, &str)] = &[
    (SENS_TOUCH, "touch", "site"),
    (SENS_ACCELEROMETER, "accelerometer", "site"),
    (SENS_VELOCIMETER, "velocimeter", "site"),
    (SENS_GYRO, "gyro", "site"),
    (SENS_FORCE, "force", "site"),
    (SENS_TORQUE, "torque", "site"),
    (SENS_MAGNETOMETER, "magnetometer", "site"),
    (SENS_RANGEFINDER, "rangefinder", "site"),
    (SENS_JOINTPOS, "jointpos", "joint"),
    (SENS_JOINTVEL, "jointvel", "joint"),
    (SENS_TENDONPOS, "tendonpos", "tendon"),
    (SENS_TENDONVEL, "tendonvel", "tendon"),
    (SENS_ACTUATORPOS, "actuatorpos", "actuator"),
    (SENS_ACTUATORVEL, "actuatorvel", "actuator"),
    (SENS_ACTUATORFRC, "actuatorfrc", "actuator"),
    (SENS_JOINTACTFRC, "jointactuatorfrc", "joint"),
    (SENS_BALLQUAT, "ballquat", "joint"),
    (SENS_BALLANGVEL, "ballangvel", "joint"),
    (SENS_JOINTLIMITPOS, "jointlimitpos", "joint"),
    (SENS_JOINTLIMITVEL, "jointlimitvel", "joint"),
    (SENS_JOINTLIMITFRC, "jointlimitfrc", "joint"),
    (SENS_TENDONLIMITPOS, "tendonlimitpos", "tendon"),
    (SENS_TENDONLIMITVEL, "tendonlimitvel", "tendon"),
    (SENS_TENDONLIMITFRC, "tendonlimitfrc", "tendon"),
    (SENS_SUBTREECOM, "subtreecom", "body"),
    (SENS_SUBTREELINVEL, "subtreelinvel", "body"),
    (SENS_SUBTREEANGMOM, "subtreeangmom", "body"),
];

/// Frame sensors: type, element, whether a reference frame may be given.
pub const FRAME_SENSORS: &[(i32, &str, bool)] = &[
    (SENS_FRAMEPOS, "framepos", true),
    (SENS_FRAMEQUAT, "framequat", true),
    (SENS_FRAMEXAXIS, "framexaxis", true),
    (SENS_FRAMEYAXIS, "frameyaxis", true),
    (SENS_FRAMEZAXIS, "framezaxis", true),
    (SENS_FRAMELINVEL, "framelinvel", true),
    (SENS_FRAMEANGVEL, "frameangvel", true),
    (SENS_FRAMELINACC, "framelinacc", false),
    (SENS_FRAMEANGACC, "frameangacc", false),
];
