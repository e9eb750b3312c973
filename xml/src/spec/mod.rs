//! The model specification: what an MJCF (or URDF) file says, before compilation.
//!
//! This mirrors MuJoCo 3.1.6's `mjSpec` and `mjs*` element structs (`user_api.h`) field for
//! field, with MuJoCo's names and defaults (`user_init.c`): the reader fills it, the compiler
//! turns it into a [`Model`](mjrs_core::Model), the writer turns it back into MJCF. Unset
//! values use MuJoCo's markers: NaN for "not given" reals (`pos[0]` of a body, `fromto[0]` of a
//! geom, `mass` of a geom...), [`Limited::Auto`] for limit flags, -1 for sizes.
//!
//! Bodies and frames live in arenas ([`Spec::bodies`], [`Spec::frames`]) and refer to each other
//! by index; body 0 is the world. Every element keeps the XML line it came from in `info`
//! (MuJoCo's `info` string), for error messages.

use mjrs_core::model::{Options, Visual};
use mjrs_core::types::*;

mod flex;
mod prune;

pub use flex::{Flex, FLEXSELF_AUTO};

/// Solver reference defaults (`mj_defaultSolRefImp`).
pub const SOLREF_DEFAULT: [f64; NREF] = [0.02, 1.0];
/// Solver impedance defaults (`mj_defaultSolRefImp`).
pub const SOLIMP_DEFAULT: [f64; NIMP] = [0.9, 0.95, 0.001, 0.5, 2.0];

/// Where an element came from: the XML file and line (MuJoCo's `info`, "line N").
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// Line number in its file (1-based); 0 when the element was made by the compiler.
    pub line: u32,
    /// The file, when it is not the main model file (an `include`).
    pub file: Option<String>,
}

/// Three-valued limit flag (`mjtLimited`): false, true, or inferred from the range.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Limited {
    /// Not limited.
    False = 0,
    /// Limited.
    True = 1,
    /// Limited when the range is given (`compiler/autolimits`).
    #[default]
    Auto = 2,
}

impl Limited {
    /// Is the element limited with this range (`islimited`)? Auto means `range[0] < range[1]`.
    pub fn is_limited(self, range: &[f64; 2]) -> bool {
        self == Limited::True || (self == Limited::Auto && range[0] < range[1])
    }
}

/// Which alternative orientation an element gives (`mjtOrientation`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OrientationType {
    /// Only `quat` (or nothing).
    #[default]
    Quat,
    /// `axisangle`.
    AxisAngle,
    /// `xyaxes`.
    XYAxes,
    /// `zaxis`.
    ZAxis,
    /// `euler`.
    Euler,
}

/// The alternative orientation specifiers of an element (`mjsOrientation`). As in MuJoCo,
/// all arrays are kept and `kind` says which one is active; a class default's alternative
/// stays active in an element that gives only `quat`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Orientation {
    /// The active specifier.
    pub kind: OrientationType,
    /// Axis and angle.
    pub axisangle: [f64; 4],
    /// X and Y axes.
    pub xyaxes: [f64; 6],
    /// Z axis (minimal rotation from +z).
    pub zaxis: [f64; 3],
    /// Euler angles, in the sequence of `compiler/eulerseq`.
    pub euler: [f64; 3],
}

/// Options of the actuator length-range computation (`mjLROpt`, `compiler/lengthrange`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LengthRangeOpt {
    /// Which actuators to process (`LRMODE_*`: none, muscle, muscleuser, all).
    pub mode: i32,
    /// Use an existing length range if available.
    pub useexisting: bool,
    /// Use joint and tendon limits if available.
    pub uselimit: bool,
    /// Target acceleration used to compute the force.
    pub accel: f64,
    /// Maximum force; 0: no limit.
    pub maxforce: f64,
    /// Time constant for velocity reduction; min 0.01.
    pub timeconst: f64,
    /// Simulation timestep; 0: use `opt.timestep`.
    pub timestep: f64,
    /// Total simulation time interval.
    pub inttotal: f64,
    /// Evaluation time interval (at the end).
    pub interval: f64,
    /// Convergence tolerance (relative to range).
    pub tolrange: f64,
}

impl Default for LengthRangeOpt {
    /// `mj_defaultLROpt`.
    fn default() -> Self {
        Self {
            mode: LRMODE_MUSCLE,
            useexisting: true,
            uselimit: false,
            accel: 20.0,
            maxforce: 0.0,
            timeconst: 1.0,
            timestep: 0.01,
            inttotal: 10.0,
            interval: 2.0,
            tolrange: 0.05,
        }
    }
}

/// `compiler/inertiafromgeom` (`mjtInertiaFromGeom`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InertiaFromGeom {
    /// Never: an `inertial` element is required.
    False = 0,
    /// Always, overriding `inertial`.
    True = 1,
    /// Only when `inertial` is missing.
    #[default]
    Auto = 2,
}

/// Statistics given in `statistic` (NaN: computed by the compiler).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StatSpec {
    /// Mean diagonal inertia.
    pub meaninertia: f64,
    /// Mean body mass.
    pub meanmass: f64,
    /// Mean body size.
    pub meansize: f64,
    /// Spatial extent.
    pub extent: f64,
    /// Center of the model (`center[0]` NaN: computed).
    pub center: [f64; 3],
}

impl Default for StatSpec {
    fn default() -> Self {
        Self {
            meaninertia: f64::NAN,
            meanmass: f64::NAN,
            meansize: f64::NAN,
            extent: f64::NAN,
            center: [f64::NAN, 0.0, 0.0],
        }
    }
}

/// The whole model specification (`mjSpec` plus the element lists of `mjCModel`).
#[derive(Clone, Debug)]
pub struct Spec {
    /// Model name (`mujoco/model`).
    pub modelname: String,
    /// The XML comment before the first element, kept for the writer.
    pub comment: String,
    /// Directory of the model file, with a trailing separator ("" for the working directory).
    pub modelfiledir: String,

    // compiler settings
    /// Infer `limited` from the presence of a range.
    pub autolimits: bool,
    /// Minimum body mass.
    pub boundmass: f64,
    /// Minimum diagonal body inertia.
    pub boundinertia: f64,
    /// Rescale masses and inertias to this total; <= 0: ignore.
    pub settotalmass: f64,
    /// Impose A + B >= C on diagonal inertias.
    pub balanceinertia: bool,
    /// Strip paths from asset file names.
    pub strippath: bool,
    /// Fit meshes to their bounding box instead of their inertia box.
    pub fitaabb: bool,
    /// Angles are in degrees (`compiler/angle`).
    pub degree: bool,
    /// Euler sequence (`compiler/eulerseq`).
    pub euler: [u8; 3],
    /// Mesh and height-field directory.
    pub meshdir: String,
    /// Texture directory.
    pub texturedir: String,
    /// Discard visual geoms and their assets.
    pub discardvisual: bool,
    /// Compute convex hulls of meshes.
    pub convexhull: bool,
    /// Use threads in the compiler (no effect on results).
    pub usethread: bool,
    /// Fuse static bodies with their parents.
    pub fusestatic: bool,
    /// Body inertias from geoms.
    pub inertiafromgeom: InertiaFromGeom,
    /// Geom groups used to compute inertias.
    pub inertiagrouprange: [i32; 2],
    /// Exact mesh inertia (false: MuJoCo's legacy formula).
    pub exactmeshinertia: bool,
    /// Options of the length-range computation.
    pub lropt: LengthRangeOpt,

    /// Physics options.
    pub option: Options,
    /// Visual options.
    pub visual: Visual,
    /// Statistics given by the user.
    pub stat: StatSpec,

    // sizes
    /// Bytes of arena memory (`size/memory`); -1: heuristic.
    pub memory: i64,
    /// Number of `mjtNum`s in `userdata`.
    pub nuserdata: i32,
    /// `nuser_*`: number of user values per object; -1: the largest given.
    pub nuser_body: i32,
    /// See `nuser_body`.
    pub nuser_jnt: i32,
    /// See `nuser_body`.
    pub nuser_geom: i32,
    /// See `nuser_body`.
    pub nuser_site: i32,
    /// See `nuser_body`.
    pub nuser_cam: i32,
    /// See `nuser_body`.
    pub nuser_tendon: i32,
    /// See `nuser_body`.
    pub nuser_actuator: i32,
    /// See `nuser_body`.
    pub nuser_sensor: i32,
    /// Number of keyframes to allocate (at least).
    pub nkey: i32,
    /// Deprecated maximum number of constraints; -1: unset.
    pub njmax: i32,
    /// Deprecated maximum number of contacts; -1: unset.
    pub nconmax: i32,
    /// Deprecated stack size in `mjtNum`s; -1: unset.
    pub nstack: i64,

    /// Default classes; 0 is `main`.
    pub defaults: Vec<DefaultClass>,
    /// Bodies; 0 is the world.
    pub bodies: Vec<Body>,
    /// Frames (`frame` elements).
    pub frames: Vec<Frame>,

    /// Meshes.
    pub meshes: Vec<Mesh>,
    /// Flexes, in `deformable` and `flexcomp` reading order.
    pub flexes: Vec<Flex>,
    /// Skins.
    pub skins: Vec<Skin>,
    /// Height fields.
    pub hfields: Vec<HField>,
    /// Textures.
    pub textures: Vec<Texture>,
    /// Materials.
    pub materials: Vec<Material>,
    /// Explicit contact pairs.
    pub pairs: Vec<Pair>,
    /// Excluded body pairs.
    pub excludes: Vec<Exclude>,
    /// Equality constraints.
    pub equalities: Vec<Equality>,
    /// Tendons.
    pub tendons: Vec<Tendon>,
    /// Actuators.
    pub actuators: Vec<Actuator>,
    /// Sensors.
    pub sensors: Vec<Sensor>,
    /// Custom numeric fields.
    pub numerics: Vec<Numeric>,
    /// Custom text fields.
    pub texts: Vec<Text>,
    /// Custom tuples.
    pub tuples: Vec<Tuple>,
    /// Keyframes.
    pub keys: Vec<Key>,
    /// Plugin instances: those of `extension`, then the implicit ones in reading order.
    pub plugins: Vec<PluginInstance>,
    /// The plugins `extension` declares, with their registry slots (only these may be used).
    pub active_plugins: Vec<(String, usize)>,
}

impl Default for Spec {
    /// `mjs_defaultSpec`, with the world body and the `main` default class.
    fn default() -> Self {
        Self {
            modelname: "MuJoCo Model".into(),
            comment: String::new(),
            modelfiledir: String::new(),
            autolimits: true,
            boundmass: 0.0,
            boundinertia: 0.0,
            settotalmass: -1.0,
            balanceinertia: false,
            strippath: false,
            fitaabb: false,
            degree: true,
            euler: *b"xyz",
            meshdir: String::new(),
            texturedir: String::new(),
            discardvisual: false,
            convexhull: true,
            usethread: true,
            fusestatic: false,
            inertiafromgeom: InertiaFromGeom::Auto,
            inertiagrouprange: [0, NGROUP as i32 - 1],
            exactmeshinertia: false,
            lropt: LengthRangeOpt::default(),
            option: Options::default(),
            visual: Visual::default(),
            stat: StatSpec::default(),
            memory: -1,
            nuserdata: 0,
            nuser_body: -1,
            nuser_jnt: -1,
            nuser_geom: -1,
            nuser_site: -1,
            nuser_cam: -1,
            nuser_tendon: -1,
            nuser_actuator: -1,
            nuser_sensor: -1,
            nkey: 0,
            njmax: -1,
            nconmax: -1,
            nstack: -1,
            defaults: vec![DefaultClass::named("main", None)],
            bodies: vec![Body::world()],
            frames: Vec::new(),
            meshes: Vec::new(),
            flexes: Vec::new(),
            skins: Vec::new(),
            hfields: Vec::new(),
            textures: Vec::new(),
            materials: Vec::new(),
            pairs: Vec::new(),
            excludes: Vec::new(),
            equalities: Vec::new(),
            tendons: Vec::new(),
            actuators: Vec::new(),
            sensors: Vec::new(),
            numerics: Vec::new(),
            texts: Vec::new(),
            tuples: Vec::new(),
            keys: Vec::new(),
            plugins: Vec::new(),
            active_plugins: Vec::new(),
        }
    }
}

/// An element's use of a plugin (`mjsPlugin` inside a body, geom, mesh, actuator or sensor):
/// a named instance of `extension`, or an implicit instance of its own.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PluginRef {
    /// The plugin's name (`plugin` attribute, "" when not given).
    pub plugin: String,
    /// The name of an instance declared in `extension` (`instance` attribute, "" when not given).
    pub instance: String,
    /// The implicit instance made for this element (an index of [`Spec::plugins`]), when no
    /// instance is named.
    pub implicit: Option<usize>,
}

/// A plugin instance (`mjCPlugin`): declared in `extension`, or made implicitly by an element.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PluginInstance {
    /// Name ("" for implicit instances).
    pub name: String,
    /// Registry slot; `None` for an implicit instance until the element using it is compiled.
    pub slot: Option<usize>,
    /// Configuration, key to value, sorted by key.
    pub config: std::collections::BTreeMap<String, String>,
    /// Source line (of the `extension/plugin` element for a declared instance).
    pub info: Info,
}

/// Number of geom groups (`mjNGROUP`).
pub use mjrs_core::types::NGROUP;

/// A default class (`mjsDefault`): the element specs new elements of this class start from.
#[derive(Clone, Debug)]
pub struct DefaultClass {
    /// Class name.
    pub name: String,
    /// Parent class (None for `main`).
    pub parent: Option<usize>,
    /// Child classes, in the order they were declared.
    pub children: Vec<usize>,
    /// Joint defaults.
    pub joint: Joint,
    /// Geom defaults.
    pub geom: Geom,
    /// Site defaults.
    pub site: Site,
    /// Camera defaults.
    pub camera: Camera,
    /// Light defaults.
    pub light: Light,
    /// Mesh defaults.
    pub mesh: Mesh,
    /// Material defaults.
    pub material: Material,
    /// Pair defaults.
    pub pair: Pair,
    /// Equality defaults.
    pub equality: Equality,
    /// Tendon defaults.
    pub tendon: Tendon,
    /// Actuator defaults.
    pub actuator: Actuator,
}

impl DefaultClass {
    /// A class with MuJoCo's built-in defaults (the `main` class before the XML changes it).
    pub fn named(name: &str, parent: Option<usize>) -> Self {
        Self {
            name: name.into(),
            parent,
            children: Vec::new(),
            joint: Joint::default(),
            geom: Geom::default(),
            site: Site::default(),
            camera: Camera::default(),
            light: Light::default(),
            mesh: Mesh::default(),
            material: Material::default(),
            pair: Pair::default(),
            equality: Equality::default(),
            tendon: Tendon::default(),
            actuator: Actuator::default(),
        }
    }
}

/// A child of a body, in document order: the compiler needs the interleaving of bodies and
/// frames only for frames; objects keep their own per-type order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Child {
    /// A child body.
    Body(usize),
    /// A frame.
    Frame(usize),
}

/// A body (`mjsBody`) with the objects it holds.
#[derive(Clone, Debug)]
pub struct Body {
    /// Name ("world" for body 0).
    pub name: String,
    /// `childclass`.
    pub childclass: String,
    /// Parent body (None for the world).
    pub parent: Option<usize>,
    /// The frame this body is declared in, if any.
    pub frame: Option<usize>,
    /// Default class of the body's children (the childclass, or inherited).
    pub default: usize,
    /// Frame position; `pos[0]` NaN: not given.
    pub pos: [f64; 3],
    /// Frame orientation.
    pub quat: [f64; 4],
    /// Alternative orientation.
    pub alt: Orientation,
    /// Mass (from `inertial`).
    pub mass: f64,
    /// Inertial frame position; `ipos[0]` NaN: not given.
    pub ipos: [f64; 3],
    /// Inertial frame orientation.
    pub iquat: [f64; 4],
    /// Diagonal inertia.
    pub inertia: [f64; 3],
    /// Alternative orientation of the inertial frame.
    pub ialt: Orientation,
    /// Full inertia (xx yy zz xy xz yz); `fullinertia[0]` NaN: not given.
    pub fullinertia: [f64; 6],
    /// Mocap body.
    pub mocap: bool,
    /// Gravity compensation.
    pub gravcomp: f64,
    /// User data.
    pub userdata: Vec<f64>,
    /// An `inertial` element was given.
    pub explicitinertial: bool,
    /// Its `plugin` child: the instance it uses.
    pub plugin: Option<PluginRef>,
    /// Child bodies, in order.
    pub bodies: Vec<usize>,
    /// Joints, in order.
    pub joints: Vec<Joint>,
    /// Geoms, in order.
    pub geoms: Vec<Geom>,
    /// Sites, in order.
    pub sites: Vec<Site>,
    /// Cameras, in order.
    pub cameras: Vec<Camera>,
    /// Lights, in order.
    pub lights: Vec<Light>,
    /// Frames declared directly in this body.
    pub frames: Vec<usize>,
    /// Source line.
    pub info: Info,
}

impl Body {
    /// `mjs_defaultBody`, as a child of `parent` with default class `default`.
    pub fn new(parent: Option<usize>, default: usize) -> Self {
        Self {
            name: String::new(),
            childclass: String::new(),
            parent,
            frame: None,
            default,
            pos: [f64::NAN, 0.0, 0.0],
            quat: [1.0, 0.0, 0.0, 0.0],
            alt: Orientation::default(),
            mass: 0.0,
            ipos: [f64::NAN, 0.0, 0.0],
            iquat: [1.0, 0.0, 0.0, 0.0],
            inertia: [0.0; 3],
            ialt: Orientation::default(),
            fullinertia: [f64::NAN, 0.0, 0.0, 0.0, 0.0, 0.0],
            mocap: false,
            gravcomp: 0.0,
            userdata: Vec::new(),
            explicitinertial: false,
            plugin: None,
            bodies: Vec::new(),
            joints: Vec::new(),
            geoms: Vec::new(),
            sites: Vec::new(),
            cameras: Vec::new(),
            lights: Vec::new(),
            frames: Vec::new(),
            info: Info::default(),
        }
    }

    /// The world body.
    pub fn world() -> Self {
        let mut b = Self::new(None, 0);
        b.name = "world".into();
        b
    }
}

/// A coordinate frame (`mjsFrame`, the `frame` element): poses and default class for the
/// elements declared inside it.
#[derive(Clone, Debug)]
pub struct Frame {
    /// Name.
    pub name: String,
    /// `childclass`.
    pub childclass: String,
    /// The body it is declared in.
    pub body: usize,
    /// The enclosing frame, if any.
    pub parent: Option<usize>,
    /// Default class of its children.
    pub default: usize,
    /// Position.
    pub pos: [f64; 3],
    /// Orientation.
    pub quat: [f64; 4],
    /// Alternative orientation.
    pub alt: Orientation,
    /// Source line.
    pub info: Info,
}

impl Frame {
    /// `mjs_defaultFrame`.
    pub fn new(body: usize, parent: Option<usize>, default: usize) -> Self {
        Self {
            name: String::new(),
            childclass: String::new(),
            body,
            parent,
            default,
            pos: [0.0; 3],
            quat: [1.0, 0.0, 0.0, 0.0],
            alt: Orientation::default(),
            info: Info::default(),
        }
    }
}

/// A joint (`mjsJoint`).
#[derive(Clone, Debug, PartialEq)]
pub struct Joint {
    /// Name.
    pub name: String,
    /// Class name ("" for the enclosing body's class).
    pub classname: String,
    /// Default class this joint was made from.
    pub default: usize,
    /// Enclosing frame.
    pub frame: Option<usize>,
    /// Joint type (`JNT_*`).
    pub jtype: i32,
    /// Anchor position.
    pub pos: [f64; 3],
    /// Axis.
    pub axis: [f64; 3],
    /// Value at the reference configuration (`qpos0`).
    pub ref_: f64,
    /// Stiffness.
    pub stiffness: f64,
    /// Spring reference (`qpos_spring`).
    pub springref: f64,
    /// Time constant and damping ratio of an automatic spring-damper.
    pub springdamper: [f64; 2],
    /// Limit flag.
    pub limited: Limited,
    /// Joint range.
    pub range: [f64; 2],
    /// Limit margin.
    pub margin: f64,
    /// Limit solref.
    pub solref_limit: [f64; NREF],
    /// Limit solimp.
    pub solimp_limit: [f64; NIMP],
    /// Actuator-force limit flag.
    pub actfrclimited: Limited,
    /// Actuator-force range.
    pub actfrcrange: [f64; 2],
    /// Armature.
    pub armature: f64,
    /// Damping.
    pub damping: f64,
    /// Friction loss.
    pub frictionloss: f64,
    /// Friction solref.
    pub solref_friction: [f64; NREF],
    /// Friction solimp.
    pub solimp_friction: [f64; NIMP],
    /// Group.
    pub group: i32,
    /// Gravity compensation applied through actuators.
    pub actgravcomp: bool,
    /// User data.
    pub userdata: Vec<f64>,
    /// Source line.
    pub info: Info,
}

impl Default for Joint {
    /// `mjs_defaultJoint`.
    fn default() -> Self {
        Self {
            name: String::new(),
            classname: String::new(),
            default: 0,
            frame: None,
            jtype: JNT_HINGE,
            pos: [0.0; 3],
            axis: [0.0, 0.0, 1.0],
            ref_: 0.0,
            stiffness: 0.0,
            springref: 0.0,
            springdamper: [0.0; 2],
            limited: Limited::Auto,
            range: [0.0; 2],
            margin: 0.0,
            solref_limit: SOLREF_DEFAULT,
            solimp_limit: SOLIMP_DEFAULT,
            actfrclimited: Limited::Auto,
            actfrcrange: [0.0; 2],
            armature: 0.0,
            damping: 0.0,
            frictionloss: 0.0,
            solref_friction: SOLREF_DEFAULT,
            solimp_friction: SOLIMP_DEFAULT,
            group: 0,
            actgravcomp: false,
            userdata: Vec::new(),
            info: Info::default(),
        }
    }
}

/// A geom (`mjsGeom`).
#[derive(Clone, Debug, PartialEq)]
pub struct Geom {
    /// Name.
    pub name: String,
    /// Class name.
    pub classname: String,
    /// Default class this geom was made from.
    pub default: usize,
    /// Enclosing frame.
    pub frame: Option<usize>,
    /// Geom type (`GEOM_*`).
    pub gtype: i32,
    /// Position.
    pub pos: [f64; 3],
    /// Orientation.
    pub quat: [f64; 4],
    /// Alternative orientation.
    pub alt: Orientation,
    /// `fromto` (capsule, cylinder, box, ellipsoid); `fromto[0]` NaN: not given.
    pub fromto: [f64; 6],
    /// Type-specific size.
    pub size: [f64; 3],
    /// Contact type bits.
    pub contype: i32,
    /// Contact affinity bits.
    pub conaffinity: i32,
    /// Contact dimensionality.
    pub condim: i32,
    /// Contact priority.
    pub priority: i32,
    /// Friction (slide, spin, roll).
    pub friction: [f64; 3],
    /// Solver mixing weight.
    pub solmix: f64,
    /// Solver reference.
    pub solref: [f64; NREF],
    /// Solver impedance.
    pub solimp: [f64; NIMP],
    /// Contact margin.
    pub margin: f64,
    /// Contact gap.
    pub gap: f64,
    /// Mass; NaN: from density.
    pub mass: f64,
    /// Density.
    pub density: f64,
    /// Shell inertia (`shellinertia`) instead of volume inertia.
    pub shellinertia: bool,
    /// Ellipsoid fluid model active (`fluidshape="ellipsoid"`).
    pub fluid_ellipsoid: f64,
    /// Ellipsoid fluid coefficients.
    pub fluid_coefs: [f64; 5],
    /// Material name.
    pub material: String,
    /// Color when no material is given.
    pub rgba: [f32; 4],
    /// Group.
    pub group: i32,
    /// Height field name.
    pub hfieldname: String,
    /// Mesh name.
    pub meshname: String,
    /// Uniform mesh fit scale.
    pub fitscale: f64,
    /// User data.
    pub userdata: Vec<f64>,
    /// Its `plugin` child: the instance it uses.
    pub plugin: Option<PluginRef>,
    /// Source line.
    pub info: Info,
}

impl Default for Geom {
    /// `mjs_defaultGeom`.
    fn default() -> Self {
        Self {
            name: String::new(),
            classname: String::new(),
            default: 0,
            frame: None,
            gtype: GEOM_SPHERE,
            pos: [0.0; 3],
            quat: [1.0, 0.0, 0.0, 0.0],
            alt: Orientation::default(),
            fromto: [f64::NAN, 0.0, 0.0, 0.0, 0.0, 0.0],
            size: [0.0; 3],
            contype: 1,
            conaffinity: 1,
            condim: 3,
            priority: 0,
            friction: [1.0, 0.005, 0.0001],
            solmix: 1.0,
            solref: SOLREF_DEFAULT,
            solimp: SOLIMP_DEFAULT,
            margin: 0.0,
            gap: 0.0,
            mass: f64::NAN,
            density: 1000.0,
            shellinertia: false,
            fluid_ellipsoid: 0.0,
            fluid_coefs: [0.5, 0.25, 1.5, 1.0, 1.0],
            material: String::new(),
            rgba: [0.5, 0.5, 0.5, 1.0],
            group: 0,
            hfieldname: String::new(),
            meshname: String::new(),
            fitscale: 1.0,
            userdata: Vec::new(),
            plugin: None,
            info: Info::default(),
        }
    }
}

/// A site (`mjsSite`).
#[derive(Clone, Debug, PartialEq)]
pub struct Site {
    /// Name.
    pub name: String,
    /// Class name.
    pub classname: String,
    /// Default class this site was made from.
    pub default: usize,
    /// Enclosing frame.
    pub frame: Option<usize>,
    /// Position.
    pub pos: [f64; 3],
    /// Orientation.
    pub quat: [f64; 4],
    /// Alternative orientation.
    pub alt: Orientation,
    /// `fromto`; `fromto[0]` NaN: not given.
    pub fromto: [f64; 6],
    /// Size.
    pub size: [f64; 3],
    /// Geom type for rendering.
    pub stype: i32,
    /// Material name.
    pub material: String,
    /// Group.
    pub group: i32,
    /// Color.
    pub rgba: [f32; 4],
    /// User data.
    pub userdata: Vec<f64>,
    /// Source line.
    pub info: Info,
}

impl Default for Site {
    /// `mjs_defaultSite`.
    fn default() -> Self {
        Self {
            name: String::new(),
            classname: String::new(),
            default: 0,
            frame: None,
            pos: [0.0; 3],
            quat: [1.0, 0.0, 0.0, 0.0],
            alt: Orientation::default(),
            fromto: [f64::NAN, 0.0, 0.0, 0.0, 0.0, 0.0],
            size: [0.005; 3],
            stype: GEOM_SPHERE,
            material: String::new(),
            group: 0,
            rgba: [0.5, 0.5, 0.5, 1.0],
            userdata: Vec::new(),
            info: Info::default(),
        }
    }
}

/// A camera (`mjsCamera`).
#[derive(Clone, Debug, PartialEq)]
pub struct Camera {
    /// Name.
    pub name: String,
    /// Class name.
    pub classname: String,
    /// Default class this camera was made from.
    pub default: usize,
    /// Enclosing frame.
    pub frame: Option<usize>,
    /// Position.
    pub pos: [f64; 3],
    /// Orientation.
    pub quat: [f64; 4],
    /// Alternative orientation.
    pub alt: Orientation,
    /// Tracking mode (`CAMLIGHT_*`).
    pub mode: i32,
    /// Target body name.
    pub targetbody: String,
    /// Vertical field of view (degrees).
    pub fovy: f64,
    /// Inter-pupillary distance.
    pub ipd: f64,
    /// Intrinsics: focal length and principal point (length units).
    pub intrinsic: [f32; 4],
    /// Sensor size (length).
    pub sensor_size: [f32; 2],
    /// Resolution (pixels).
    pub resolution: [f32; 2],
    /// Focal length (length).
    pub focal_length: [f32; 2],
    /// Focal length (pixels).
    pub focal_pixel: [f32; 2],
    /// Principal point (length).
    pub principal_length: [f32; 2],
    /// Principal point (pixels).
    pub principal_pixel: [f32; 2],
    /// User data.
    pub userdata: Vec<f64>,
    /// Source line.
    pub info: Info,
}

impl Default for Camera {
    /// `mjs_defaultCamera`.
    fn default() -> Self {
        Self {
            name: String::new(),
            classname: String::new(),
            default: 0,
            frame: None,
            pos: [0.0; 3],
            quat: [1.0, 0.0, 0.0, 0.0],
            alt: Orientation::default(),
            mode: CAMLIGHT_FIXED,
            targetbody: String::new(),
            fovy: 45.0,
            ipd: 0.068,
            intrinsic: [0.0; 4],
            sensor_size: [0.0; 2],
            resolution: [1.0, 1.0],
            focal_length: [0.0; 2],
            focal_pixel: [0.0; 2],
            principal_length: [0.0; 2],
            principal_pixel: [0.0; 2],
            userdata: Vec::new(),
            info: Info::default(),
        }
    }
}

/// A light (`mjsLight`).
#[derive(Clone, Debug, PartialEq)]
pub struct Light {
    /// Name.
    pub name: String,
    /// Class name.
    pub classname: String,
    /// Default class this light was made from.
    pub default: usize,
    /// Enclosing frame.
    pub frame: Option<usize>,
    /// Position.
    pub pos: [f64; 3],
    /// Direction.
    pub dir: [f64; 3],
    /// Tracking mode (`CAMLIGHT_*`).
    pub mode: i32,
    /// Target body name.
    pub targetbody: String,
    /// Is the light on.
    pub active: bool,
    /// Directional (vs spot).
    pub directional: bool,
    /// Casts shadows.
    pub castshadow: bool,
    /// Bulb radius for soft shadows.
    pub bulbradius: f64,
    /// OpenGL attenuation.
    pub attenuation: [f32; 3],
    /// OpenGL cutoff.
    pub cutoff: f32,
    /// OpenGL exponent.
    pub exponent: f32,
    /// Ambient color.
    pub ambient: [f32; 3],
    /// Diffuse color.
    pub diffuse: [f32; 3],
    /// Specular color.
    pub specular: [f32; 3],
    /// Source line.
    pub info: Info,
}

impl Default for Light {
    /// `mjs_defaultLight`.
    fn default() -> Self {
        Self {
            name: String::new(),
            classname: String::new(),
            default: 0,
            frame: None,
            pos: [0.0; 3],
            dir: [0.0, 0.0, -1.0],
            mode: CAMLIGHT_FIXED,
            targetbody: String::new(),
            active: true,
            directional: false,
            castshadow: true,
            bulbradius: 0.02,
            attenuation: [1.0, 0.0, 0.0],
            cutoff: 45.0,
            exponent: 10.0,
            ambient: [0.0; 3],
            diffuse: [0.7; 3],
            specular: [0.3; 3],
            info: Info::default(),
        }
    }
}

/// A mesh asset (`mjsMesh`).
#[derive(Clone, Debug, PartialEq)]
pub struct Mesh {
    /// Name (from the file name when not given).
    pub name: String,
    /// Class name.
    pub classname: String,
    /// Content type (`model/stl`, `model/obj`, `model/vnd.mujoco.msh`).
    pub content_type: String,
    /// File, relative to the mesh directory as the reader resolved it.
    pub file: String,
    /// Reference position.
    pub refpos: [f64; 3],
    /// Reference orientation.
    pub refquat: [f64; 4],
    /// Scale.
    pub scale: [f64; 3],
    /// Smooth normals over large-angle faces.
    pub smoothnormal: bool,
    /// User vertices.
    pub uservert: Vec<f32>,
    /// User normals.
    pub usernormal: Vec<f32>,
    /// User texture coordinates.
    pub usertexcoord: Vec<f32>,
    /// User faces.
    pub userface: Vec<i32>,
    /// Its `plugin` child: the instance it uses.
    pub plugin: Option<PluginRef>,
    /// Source line.
    pub info: Info,
}

impl Default for Mesh {
    /// `mjs_defaultMesh`.
    fn default() -> Self {
        Self {
            name: String::new(),
            classname: String::new(),
            content_type: String::new(),
            file: String::new(),
            refpos: [0.0; 3],
            refquat: [1.0, 0.0, 0.0, 0.0],
            scale: [1.0; 3],
            smoothnormal: false,
            uservert: Vec::new(),
            usernormal: Vec::new(),
            usertexcoord: Vec::new(),
            userface: Vec::new(),
            plugin: None,
            info: Info::default(),
        }
    }
}

/// A height field asset (`mjsHField`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HField {
    /// Name.
    pub name: String,
    /// Content type.
    pub content_type: String,
    /// File (PNG or MuJoCo's binary height-field format).
    pub file: String,
    /// Size: x radius, y radius, elevation, base.
    pub size: [f64; 4],
    /// Rows.
    pub nrow: i32,
    /// Columns.
    pub ncol: i32,
    /// Elevation data given in the XML, rows bottom to top.
    pub userdata: Vec<f32>,
    /// Source line.
    pub info: Info,
}

/// A skin asset (`mjsSkin`).
#[derive(Clone, Debug, PartialEq)]
pub struct Skin {
    /// Name.
    pub name: String,
    /// Skin file.
    pub file: String,
    /// Material name.
    pub material: String,
    /// Color.
    pub rgba: [f32; 4],
    /// Inflation along normals.
    pub inflate: f32,
    /// Group.
    pub group: i32,
    /// Vertices.
    pub vert: Vec<f32>,
    /// Texture coordinates.
    pub texcoord: Vec<f32>,
    /// Faces.
    pub face: Vec<i32>,
    /// Bone body names.
    pub bodyname: Vec<String>,
    /// Bind positions (3 per bone).
    pub bindpos: Vec<f32>,
    /// Bind orientations (4 per bone).
    pub bindquat: Vec<f32>,
    /// Vertex ids per bone.
    pub vertid: Vec<Vec<i32>>,
    /// Vertex weights per bone.
    pub vertweight: Vec<Vec<f32>>,
    /// Source line.
    pub info: Info,
}

impl Default for Skin {
    /// `mjs_defaultSkin`.
    fn default() -> Self {
        Self {
            name: String::new(),
            file: String::new(),
            material: String::new(),
            rgba: [0.5, 0.5, 0.5, 1.0],
            inflate: 0.0,
            group: 0,
            vert: Vec::new(),
            texcoord: Vec::new(),
            face: Vec::new(),
            bodyname: Vec::new(),
            bindpos: Vec::new(),
            bindquat: Vec::new(),
            vertid: Vec::new(),
            vertweight: Vec::new(),
            info: Info::default(),
        }
    }
}

/// `mjBUILTIN_*`: procedural textures.
pub mod builtin {
    /// No built-in texture.
    pub const NONE: i32 = 0;
    /// Gradient rgb1 -> rgb2.
    pub const GRADIENT: i32 = 1;
    /// Checker pattern rgb1, rgb2.
    pub const CHECKER: i32 = 2;
    /// Flat: 2d rgb1; cube rgb1 up, rgb2 side, rgb3 down.
    pub const FLAT: i32 = 3;
}

/// `mjMARK_*`: marks on procedural textures.
pub mod mark {
    /// No mark.
    pub const NONE: i32 = 0;
    /// Edges.
    pub const EDGE: i32 = 1;
    /// Cross.
    pub const CROSS: i32 = 2;
    /// Random dots.
    pub const RANDOM: i32 = 3;
}

/// A texture asset (`mjsTexture`).
#[derive(Clone, Debug, PartialEq)]
pub struct Texture {
    /// Name.
    pub name: String,
    /// Texture type (`TEXTURE_*`).
    pub ttype: i32,
    /// Built-in procedural type ([`builtin`]).
    pub builtin: i32,
    /// Mark ([`mark`]).
    pub mark: i32,
    /// First color.
    pub rgb1: [f64; 3],
    /// Second color.
    pub rgb2: [f64; 3],
    /// Mark color.
    pub markrgb: [f64; 3],
    /// Probability of random dots.
    pub random: f64,
    /// Height in pixels.
    pub height: i32,
    /// Width in pixels.
    pub width: i32,
    /// Content type of `file`.
    pub content_type: String,
    /// PNG file (or MuJoCo's custom texture format).
    pub file: String,
    /// Grid size of a composite file.
    pub gridsize: [i32; 2],
    /// Grid layout (row-major; L,R,F,B,U,D or `.`).
    pub gridlayout: [u8; 12],
    /// Separate files of the cube sides: right, left, up, down, front, back.
    pub cubefiles: [String; 6],
    /// Horizontal flip.
    pub hflip: bool,
    /// Vertical flip.
    pub vflip: bool,
    /// Source line.
    pub info: Info,
}

impl Default for Texture {
    /// `mjs_defaultTexture`.
    fn default() -> Self {
        Self {
            name: String::new(),
            ttype: TEXTURE_CUBE,
            builtin: builtin::NONE,
            mark: mark::NONE,
            rgb1: [0.8; 3],
            rgb2: [0.5; 3],
            markrgb: [0.0; 3],
            random: 0.01,
            height: 0,
            width: 0,
            content_type: String::new(),
            file: String::new(),
            gridsize: [1, 1],
            gridlayout: *b"............",
            cubefiles: DefaultClass::empty_files(),
            hflip: false,
            vflip: false,
            info: Info::default(),
        }
    }
}

impl DefaultClass {
    fn empty_files() -> [String; 6] {
        [
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
        ]
    }
}

/// A material asset (`mjsMaterial`).
#[derive(Clone, Debug, PartialEq)]
pub struct Material {
    /// Name.
    pub name: String,
    /// Class name.
    pub classname: String,
    /// Texture name.
    pub texture: String,
    /// Uniform cube texture.
    pub texuniform: bool,
    /// Texture repetition for 2D mapping.
    pub texrepeat: [f32; 2],
    /// Emission.
    pub emission: f32,
    /// Specular.
    pub specular: f32,
    /// Shininess.
    pub shininess: f32,
    /// Reflectance.
    pub reflectance: f32,
    /// Metallic.
    pub metallic: f32,
    /// Roughness.
    pub roughness: f32,
    /// Color.
    pub rgba: [f32; 4],
    /// Source line.
    pub info: Info,
}

impl Default for Material {
    /// `mjs_defaultMaterial`.
    fn default() -> Self {
        Self {
            name: String::new(),
            classname: String::new(),
            texture: String::new(),
            texuniform: false,
            texrepeat: [1.0, 1.0],
            emission: 0.0,
            specular: 0.5,
            shininess: 0.5,
            reflectance: 0.0,
            metallic: 1.0,
            roughness: 1.0,
            rgba: [1.0; 4],
            info: Info::default(),
        }
    }
}

/// An explicit contact pair (`mjsPair`).
#[derive(Clone, Debug, PartialEq)]
pub struct Pair {
    /// Name.
    pub name: String,
    /// Class name.
    pub classname: String,
    /// First geom.
    pub geomname1: String,
    /// Second geom.
    pub geomname2: String,
    /// Contact dimensionality.
    pub condim: i32,
    /// Solver reference, normal direction.
    pub solref: [f64; NREF],
    /// Solver reference, frictional directions (all zero: same as `solref`).
    pub solreffriction: [f64; NREF],
    /// Solver impedance.
    pub solimp: [f64; NIMP],
    /// Margin; NaN-free: 0 by default.
    pub margin: f64,
    /// Gap.
    pub gap: f64,
    /// Full contact friction.
    pub friction: [f64; 5],
    /// Source line.
    pub info: Info,
}

impl Default for Pair {
    /// `mjs_defaultPair`.
    fn default() -> Self {
        Self {
            name: String::new(),
            classname: String::new(),
            geomname1: String::new(),
            geomname2: String::new(),
            condim: 3,
            solref: SOLREF_DEFAULT,
            solreffriction: [0.0; NREF],
            solimp: SOLIMP_DEFAULT,
            margin: 0.0,
            gap: 0.0,
            friction: [1.0, 1.0, 0.005, 0.0001, 0.0001],
            info: Info::default(),
        }
    }
}

/// An excluded body pair (`mjsExclude`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Exclude {
    /// Name.
    pub name: String,
    /// First body.
    pub bodyname1: String,
    /// Second body.
    pub bodyname2: String,
    /// Source line.
    pub info: Info,
}

/// An equality constraint (`mjsEquality`).
#[derive(Clone, Debug, PartialEq)]
pub struct Equality {
    /// Name.
    pub name: String,
    /// Class name.
    pub classname: String,
    /// Type (`EQ_*`).
    pub etype: i32,
    /// Type-dependent data (anchor, relpose, torquescale, polycoef).
    pub data: [f64; NEQDATA],
    /// Initially active.
    pub active: bool,
    /// First object name.
    pub name1: String,
    /// Second object name ("" for the world or none).
    pub name2: String,
    /// Solver reference.
    pub solref: [f64; NREF],
    /// Solver impedance.
    pub solimp: [f64; NIMP],
    /// Source line.
    pub info: Info,
}

impl Default for Equality {
    /// `mjs_defaultEquality`.
    fn default() -> Self {
        let mut data = [0.0; NEQDATA];
        data[1] = 1.0;
        data[10] = 1.0;
        Self {
            name: String::new(),
            classname: String::new(),
            etype: EQ_CONNECT,
            data,
            active: true,
            name1: String::new(),
            name2: String::new(),
            solref: SOLREF_DEFAULT,
            solimp: SOLIMP_DEFAULT,
            info: Info::default(),
        }
    }
}

/// One element of a tendon's path (`mjsWrap` and its target).
#[derive(Clone, Debug, PartialEq)]
pub enum Wrap {
    /// A joint of a fixed tendon, with its coefficient.
    Joint {
        /// Joint name.
        name: String,
        /// Coefficient.
        coef: f64,
        /// Source line.
        info: Info,
    },
    /// A site of a spatial tendon.
    Site {
        /// Site name.
        name: String,
        /// Source line.
        info: Info,
    },
    /// A wrapping geom (sphere or cylinder), with an optional side site.
    Geom {
        /// Geom name.
        name: String,
        /// Side site name ("" for none).
        sidesite: String,
        /// Source line.
        info: Info,
    },
    /// A pulley, with its divisor.
    Pulley {
        /// Divisor.
        divisor: f64,
        /// Source line.
        info: Info,
    },
}

/// A tendon (`mjsTendon`) with its path.
#[derive(Clone, Debug, PartialEq)]
pub struct Tendon {
    /// Name.
    pub name: String,
    /// Class name.
    pub classname: String,
    /// Stiffness.
    pub stiffness: f64,
    /// Spring resting length range; {-1, -1}: from `qpos_spring`.
    pub springlength: [f64; 2],
    /// Damping.
    pub damping: f64,
    /// Friction loss.
    pub frictionloss: f64,
    /// Friction solref.
    pub solref_friction: [f64; NREF],
    /// Friction solimp.
    pub solimp_friction: [f64; NIMP],
    /// Limit flag.
    pub limited: Limited,
    /// Length range.
    pub range: [f64; 2],
    /// Limit margin.
    pub margin: f64,
    /// Limit solref.
    pub solref_limit: [f64; NREF],
    /// Limit solimp.
    pub solimp_limit: [f64; NIMP],
    /// Material name.
    pub material: String,
    /// Rendering width.
    pub width: f64,
    /// Color.
    pub rgba: [f32; 4],
    /// Group.
    pub group: i32,
    /// User data.
    pub userdata: Vec<f64>,
    /// Spatial (sites, geoms, pulleys) or fixed (joints) tendon: true for `spatial`.
    pub spatial: bool,
    /// Path.
    pub path: Vec<Wrap>,
    /// Source line.
    pub info: Info,
}

impl Default for Tendon {
    /// `mjs_defaultTendon`.
    fn default() -> Self {
        Self {
            name: String::new(),
            classname: String::new(),
            stiffness: 0.0,
            springlength: [-1.0, -1.0],
            damping: 0.0,
            frictionloss: 0.0,
            solref_friction: SOLREF_DEFAULT,
            solimp_friction: SOLIMP_DEFAULT,
            limited: Limited::Auto,
            range: [0.0; 2],
            margin: 0.0,
            solref_limit: SOLREF_DEFAULT,
            solimp_limit: SOLIMP_DEFAULT,
            material: String::new(),
            width: 0.003,
            rgba: [0.5, 0.5, 0.5, 1.0],
            group: 0,
            userdata: Vec::new(),
            spatial: false,
            path: Vec::new(),
            info: Info::default(),
        }
    }
}

/// An actuator (`mjsActuator`), after the reader applied its shortcut (`motor`, `position`...).
#[derive(Clone, Debug, PartialEq)]
pub struct Actuator {
    /// Name.
    pub name: String,
    /// Class name.
    pub classname: String,
    /// Gain type (`GAIN_*`).
    pub gaintype: i32,
    /// Gain parameters.
    pub gainprm: [f64; NGAIN],
    /// Bias type (`BIAS_*`).
    pub biastype: i32,
    /// Bias parameters.
    pub biasprm: [f64; NBIAS],
    /// Dynamics type (`DYN_*`).
    pub dyntype: i32,
    /// Dynamics parameters.
    pub dynprm: [f64; NDYN],
    /// Number of activation variables; -1: from the dynamics type.
    pub actdim: i32,
    /// Apply the next activation to the force.
    pub actearly: bool,
    /// Transmission type (`TRN_*`; `TRN_UNDEFINED` until a target is given).
    pub trntype: i32,
    /// Gear.
    pub gear: [f64; 6],
    /// Transmission target name.
    pub target: String,
    /// Reference site (site transmission).
    pub refsite: String,
    /// Slider site (slider-crank).
    pub slidersite: String,
    /// Crank length (slider-crank).
    pub cranklength: f64,
    /// Transmission length range.
    pub lengthrange: [f64; 2],
    /// Automatic range from the target's range (`position`, `intvelocity`).
    pub inheritrange: f64,
    /// Control limit flag.
    pub ctrllimited: Limited,
    /// Control range.
    pub ctrlrange: [f64; 2],
    /// Force limit flag.
    pub forcelimited: Limited,
    /// Force range.
    pub forcerange: [f64; 2],
    /// Activation limit flag.
    pub actlimited: Limited,
    /// Activation range.
    pub actrange: [f64; 2],
    /// Group.
    pub group: i32,
    /// User data.
    pub userdata: Vec<f64>,
    /// Its `plugin` child: the instance it uses.
    pub plugin: Option<PluginRef>,
    /// The element it came from (`general`, `motor`, ...), for the writer and messages.
    pub kind: String,
    /// Source line.
    pub info: Info,
}

impl Default for Actuator {
    /// `mjs_defaultActuator`.
    fn default() -> Self {
        let mut gainprm = [0.0; NGAIN];
        gainprm[0] = 1.0;
        let mut dynprm = [0.0; NDYN];
        dynprm[0] = 1.0;
        Self {
            name: String::new(),
            classname: String::new(),
            gaintype: GAIN_FIXED,
            gainprm,
            biastype: BIAS_NONE,
            biasprm: [0.0; NBIAS],
            dyntype: DYN_NONE,
            dynprm,
            actdim: -1,
            actearly: false,
            trntype: TRN_UNDEFINED,
            gear: [1.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            target: String::new(),
            refsite: String::new(),
            slidersite: String::new(),
            cranklength: 0.0,
            lengthrange: [0.0; 2],
            inheritrange: 0.0,
            ctrllimited: Limited::Auto,
            ctrlrange: [0.0; 2],
            forcelimited: Limited::Auto,
            forcerange: [0.0; 2],
            actlimited: Limited::Auto,
            actrange: [0.0; 2],
            group: 0,
            userdata: Vec::new(),
            plugin: None,
            kind: "general".into(),
            info: Info::default(),
        }
    }
}

/// A sensor (`mjsSensor`).
#[derive(Clone, Debug, PartialEq)]
pub struct Sensor {
    /// Name.
    pub name: String,
    /// Sensor type (`SENS_*`).
    pub stype: i32,
    /// Type of the sensed object (`OBJ_*`).
    pub objtype: i32,
    /// Name of the sensed object.
    pub objname: String,
    /// Type of the reference object (`OBJ_*`).
    pub reftype: i32,
    /// Name of the reference object.
    pub refname: String,
    /// Data type (`DATATYPE_*`), for user sensors.
    pub datatype: i32,
    /// Stage needed (`STAGE_*`), for user sensors.
    pub needstage: i32,
    /// Output dimension, for user sensors.
    pub dim: i32,
    /// Cutoff.
    pub cutoff: f64,
    /// Noise standard deviation.
    pub noise: f64,
    /// User data.
    pub userdata: Vec<f64>,
    /// Its `plugin` child: the instance it uses.
    pub plugin: Option<PluginRef>,
    /// Source line.
    pub info: Info,
}

impl Default for Sensor {
    /// `mjs_defaultSensor`.
    fn default() -> Self {
        Self {
            name: String::new(),
            stype: SENS_TOUCH,
            objtype: OBJ_UNKNOWN,
            objname: String::new(),
            reftype: OBJ_UNKNOWN,
            refname: String::new(),
            datatype: DATATYPE_REAL,
            needstage: STAGE_ACC,
            dim: 0,
            cutoff: 0.0,
            noise: 0.0,
            userdata: Vec::new(),
            plugin: None,
            info: Info::default(),
        }
    }
}

/// A custom numeric field (`mjsNumeric`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Numeric {
    /// Name.
    pub name: String,
    /// Data (padded with zeros to `size`).
    pub data: Vec<f64>,
    /// Size.
    pub size: i32,
    /// Source line.
    pub info: Info,
}

/// A custom text field (`mjsText`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Text {
    /// Name.
    pub name: String,
    /// Text.
    pub data: String,
    /// Source line.
    pub info: Info,
}

/// A custom tuple (`mjsTuple`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tuple {
    /// Name.
    pub name: String,
    /// Object types (`OBJ_*`).
    pub objtype: Vec<i32>,
    /// Object names.
    pub objname: Vec<String>,
    /// Object parameters.
    pub objprm: Vec<f64>,
    /// Source line.
    pub info: Info,
}

/// A keyframe (`mjsKey`); empty vectors are filled from the model's defaults by the compiler.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Key {
    /// Name.
    pub name: String,
    /// Time.
    pub time: f64,
    /// Positions.
    pub qpos: Vec<f64>,
    /// Velocities.
    pub qvel: Vec<f64>,
    /// Activations.
    pub act: Vec<f64>,
    /// Mocap positions.
    pub mpos: Vec<f64>,
    /// Mocap orientations.
    pub mquat: Vec<f64>,
    /// Controls.
    pub ctrl: Vec<f64>,
    /// Source line.
    pub info: Info,
}
