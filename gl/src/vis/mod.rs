//! MuJoCo's abstract visualization (`engine_vis_init.c`, `engine_vis_visualize.c`): the plain
//! data a renderer draws. Names follow MuJoCo's `mjvOption`, `mjvCamera`, `mjvPerturb`,
//! `mjvGeom`, `mjvLight`, `mjvGLCamera` and `mjvScene`.

// Floors, bottom up: the plain types of this file, `error` and `figure`; the `geom` toolbox;
// `labels` and `interact`; the stages, each adding one kind of object (or the cameras, or the
// lights); the `scene` driver that calls them in MuJoCo's order.
mod error;
mod figure;
mod geom;

pub mod interact;
mod labels;

mod actuator;
mod camera;
mod contact;
mod decor;
mod flex;
mod lights;
mod model_geoms;
mod objects;
mod skin;
mod state;
mod tendon;

mod scene;

pub use camera::update_camera;
pub use error::SceneError;
pub use figure::{Figure, MAXLINEPNT};
pub use geom::{connector, init_geom};
pub use lights::make_lights;
pub use scene::{add_geoms, update_scene};
pub use skin::update_active_skin;
pub use state::{
    move_camera_from_state, move_perturb_from_state, update_scene_from_state, SceneState,
};
pub use tendon::{catenary, NCATENARY};

use mjrs_core::types::NGROUP;
use mjrs_core::{Model, Real};

/// Geom categories (`mjtCatBit`): static (welded to the world), dynamic, decorative.
pub const CAT_STATIC: i32 = 1;
/// Dynamic geoms (`mjCAT_DYNAMIC`).
pub const CAT_DYNAMIC: i32 = 2;
/// Decorative geoms (`mjCAT_DECOR`).
pub const CAT_DECOR: i32 = 4;
/// Every category (`mjCAT_ALL`).
pub const CAT_ALL: i32 = 7;

/// Most lights a scene holds (`mjMAXLIGHT`).
pub const MAXLIGHT: usize = 100;
/// Most lines of a figure (`mjMAXLINE`).
pub const MAXLINE: usize = 100;

/// Visualization flags (`mjtVisFlag`), indices into [`VisOption::flags`], and whether each is
/// on by default (`mjVISSTRING`).
pub mod flag {
    /// Convex hulls of meshes.
    pub const CONVEXHULL: usize = 0;
    /// Textures.
    pub const TEXTURE: usize = 1;
    /// Joints.
    pub const JOINT: usize = 2;
    /// Cameras.
    pub const CAMERA: usize = 3;
    /// Actuators.
    pub const ACTUATOR: usize = 4;
    /// Activations.
    pub const ACTIVATION: usize = 5;
    /// Lights.
    pub const LIGHT: usize = 6;
    /// Tendons.
    pub const TENDON: usize = 7;
    /// Rangefinder rays.
    pub const RANGEFINDER: usize = 8;
    /// Equality constraints.
    pub const CONSTRAINT: usize = 9;
    /// Inertia boxes.
    pub const INERTIA: usize = 10;
    /// Inertia boxes scaled by mass.
    pub const SCLINERTIA: usize = 11;
    /// Perturbation force.
    pub const PERTFORCE: usize = 12;
    /// Perturbation object.
    pub const PERTOBJ: usize = 13;
    /// Contact points.
    pub const CONTACTPOINT: usize = 14;
    /// Constraint islands.
    pub const ISLAND: usize = 15;
    /// Contact forces.
    pub const CONTACTFORCE: usize = 16;
    /// Contact forces split into normal and tangent.
    pub const CONTACTSPLIT: usize = 17;
    /// Transparent dynamic geoms.
    pub const TRANSPARENT: usize = 18;
    /// Automatic connectors between bodies.
    pub const AUTOCONNECT: usize = 19;
    /// Centers of mass.
    pub const COM: usize = 20;
    /// Selection point.
    pub const SELECT: usize = 21;
    /// Static bodies.
    pub const STATIC: usize = 22;
    /// Skins.
    pub const SKIN: usize = 23;
    /// Flex vertices.
    pub const FLEXVERT: usize = 24;
    /// Flex edges.
    pub const FLEXEDGE: usize = 25;
    /// Flex faces.
    pub const FLEXFACE: usize = 26;
    /// Flex skins.
    pub const FLEXSKIN: usize = 27;
    /// Body bounding volumes.
    pub const BODYBVH: usize = 28;
    /// Flex bounding volumes.
    pub const FLEXBVH: usize = 29;
    /// Mesh bounding volumes.
    pub const MESHBVH: usize = 30;
    /// SDF iterations.
    pub const SDFITER: usize = 31;
    /// Number of flags (`mjNVISFLAG`).
    pub const N: usize = 32;
    /// On by default (`mjVISSTRING`'s defaults): texture, tendon, rangefinder, perturbation
    /// object, island colours, static bodies, skin, flex skin.
    pub(crate) const DEFAULT_ON: [usize; 8] = [
        TEXTURE,
        TENDON,
        RANGEFINDER,
        PERTOBJ,
        ISLAND,
        STATIC,
        SKIN,
        FLEXSKIN,
    ];

    /// Visualization flags (`mjVISSTRING`): name and shortcut key.
    pub const STRINGS: [(&str, &str); N] = [
        ("Convex Hull", "H"),
        ("Texture", "X"),
        ("Joint", "J"),
        ("Camera", "Q"),
        ("Actuator", "U"),
        ("Activation", ","),
        ("Light", "Z"),
        ("Tendon", "V"),
        ("Range Finder", "Y"),
        ("Equality", "E"),
        ("Inertia", "I"),
        ("Scale Inertia", "'"),
        ("Perturb Force", "B"),
        ("Perturb Object", "O"),
        ("Contact Point", "C"),
        ("Island", ""),
        ("Contact Force", "F"),
        ("Contact Split", "P"),
        ("Transparent", "T"),
        ("Auto Connect", "A"),
        ("Center of Mass", "M"),
        ("Select Point", ""),
        ("Static Body", "D"),
        ("Skin", ";"),
        ("Flex Vert", ""),
        ("Flex Edge", ""),
        ("Flex Face", ""),
        ("Flex Skin", ""),
        ("Body Tree", "`"),
        ("Flex Tree", ""),
        ("Mesh Tree", "\\"),
        ("SDF iters", ""),
    ];
}

/// What to show (`mjvOption`).
#[derive(Clone, Debug, PartialEq)]
pub struct VisOption {
    /// What objects to label (`mjtLabel`; 0: none).
    pub label: i32,
    /// Which frames to draw (`mjtFrame`; 0: none).
    pub frame: i32,
    /// Geom groups shown.
    pub geomgroup: [u8; NGROUP],
    /// Site groups shown.
    pub sitegroup: [u8; NGROUP],
    /// Joint groups shown.
    pub jointgroup: [u8; NGROUP],
    /// Tendon groups shown.
    pub tendongroup: [u8; NGROUP],
    /// Actuator groups shown.
    pub actuatorgroup: [u8; NGROUP],
    /// Flex groups shown.
    pub flexgroup: [u8; NGROUP],
    /// Skin groups shown.
    pub skingroup: [u8; NGROUP],
    /// Visualization flags, indexed by [`flag`].
    pub flags: [u8; flag::N],
    /// Depth of the bounding volume hierarchy shown.
    pub bvh_depth: i32,
    /// Flex layer shown.
    pub flex_layer: i32,
}

impl Default for VisOption {
    /// `mjv_defaultOption`: groups 0-2 shown, MuJoCo's default flags.
    fn default() -> Self {
        let groups = [1, 1, 1, 0, 0, 0];
        let mut flags = [0; flag::N];
        for f in flag::DEFAULT_ON {
            flags[f] = 1;
        }
        VisOption {
            label: 0,
            frame: 0,
            geomgroup: groups,
            sitegroup: groups,
            jointgroup: groups,
            tendongroup: groups,
            actuatorgroup: groups,
            flexgroup: groups,
            skingroup: groups,
            flags,
            bvh_depth: 1,
            flex_layer: 0,
        }
    }
}

/// Frames drawn (`mjtFrame`), the values of [`VisOption::frame`].
pub mod frame {
    /// None.
    pub const NONE: i32 = 0;
    /// Body frames.
    pub const BODY: i32 = 1;
    /// Geom frames.
    pub const GEOM: i32 = 2;
    /// Site frames.
    pub const SITE: i32 = 3;
    /// Camera frames.
    pub const CAMERA: i32 = 4;
    /// Light frames.
    pub const LIGHT: i32 = 5;
    /// Contact frames.
    pub const CONTACT: i32 = 6;
    /// The world frame.
    pub const WORLD: i32 = 7;
    /// Number of choices.
    pub const COUNT: i32 = 8;
    /// Their names, lower case (`mjFRAMESTRING`).
    pub const NAMES: [&str; COUNT as usize] = [
        "none", "body", "geom", "site", "camera", "light", "contact", "world",
    ];
}

/// Name of frame choice `f` ("?" when out of range).
pub fn frame_name(f: i32) -> &'static str {
    usize::try_from(f)
        .ok()
        .and_then(|k| frame::NAMES.get(k))
        .copied()
        .unwrap_or("?")
}

/// Name of label choice `l` ("?" when out of range).
pub fn label_name(l: i32) -> &'static str {
    usize::try_from(l)
        .ok()
        .and_then(|k| label::NAMES.get(k))
        .copied()
        .unwrap_or("?")
}

/// What to label (`mjtLabel`), the values of [`VisOption::label`].
pub mod label {
    /// Nothing.
    pub const NONE: i32 = 0;
    /// Bodies.
    pub const BODY: i32 = 1;
    /// Joints.
    pub const JOINT: i32 = 2;
    /// Geoms.
    pub const GEOM: i32 = 3;
    /// Sites.
    pub const SITE: i32 = 4;
    /// Cameras.
    pub const CAMERA: i32 = 5;
    /// Lights.
    pub const LIGHT: i32 = 6;
    /// Tendons.
    pub const TENDON: i32 = 7;
    /// Actuators.
    pub const ACTUATOR: i32 = 8;
    /// Equality constraints.
    pub const CONSTRAINT: i32 = 9;
    /// Flexes.
    pub const FLEX: i32 = 10;
    /// Skins.
    pub const SKIN: i32 = 11;
    /// The selected body.
    pub const SELECTION: i32 = 12;
    /// Coordinates of the selection point.
    pub const SELPNT: i32 = 13;
    /// The geoms of each contact.
    pub const CONTACTPOINT: i32 = 14;
    /// Contact force magnitudes.
    pub const CONTACTFORCE: i32 = 15;
    /// Island ids.
    pub const ISLAND: i32 = 16;
    /// Number of choices.
    pub const COUNT: i32 = 17;
    /// Their names, lower case (`mjLABELSTRING`).
    pub const NAMES: [&str; COUNT as usize] = [
        "none",
        "body",
        "joint",
        "geom",
        "site",
        "camera",
        "light",
        "tendon",
        "actuator",
        "constraint",
        "flex",
        "skin",
        "selection",
        "selpnt",
        "contactpoint",
        "contactforce",
        "island",
    ];
}

/// Camera types (`mjtCamera`).
pub mod camera_type {
    /// Free camera.
    pub const FREE: i32 = 0;
    /// Tracking camera (follows a body's subtree center of mass).
    pub const TRACKING: i32 = 1;
    /// A model camera.
    pub const FIXED: i32 = 2;
    /// The user sets the scene's cameras.
    pub const USER: i32 = 3;
}

/// An abstract camera (`mjvCamera`).
#[derive(Clone, Debug, PartialEq)]
pub struct Camera {
    /// [`camera_type`].
    pub type_: i32,
    /// Model camera id for [`camera_type::FIXED`].
    pub fixedcamid: i32,
    /// Body id for [`camera_type::TRACKING`].
    pub trackbodyid: i32,
    /// Point the camera looks at.
    pub lookat: [Real; 3],
    /// Distance from `lookat`.
    pub distance: Real,
    /// Azimuth (degrees).
    pub azimuth: Real,
    /// Elevation (degrees).
    pub elevation: Real,
}

impl Default for Camera {
    /// `mjv_defaultCamera`.
    fn default() -> Self {
        Camera {
            type_: camera_type::FREE,
            fixedcamid: -1,
            trackbodyid: -1,
            lookat: [0.0; 3],
            distance: 2.0,
            azimuth: 90.0,
            elevation: -45.0,
        }
    }
}

impl Camera {
    /// `mjv_defaultFreeCamera`: looking at the model's center from 1.5 extents away, at the
    /// model's default azimuth and elevation.
    pub fn default_free(m: &Model) -> Self {
        Camera {
            lookat: m.stat.center,
            distance: 1.5 * m.stat.extent,
            azimuth: Real::from(m.vis.global.azimuth),
            elevation: Real::from(m.vis.global.elevation),
            ..Camera::default()
        }
    }
}

/// Mouse perturbation and selection (`mjvPerturb`).
#[derive(Clone, Debug, PartialEq)]
pub struct Perturb {
    /// Selected body id (0: none).
    pub select: i32,
    /// Selected flex id (-1: none).
    pub flexselect: i32,
    /// Selected skin id (-1: none).
    pub skinselect: i32,
    /// Perturbation bitmask (`mjtPertBit`).
    pub active: i32,
    /// Secondary perturbation bitmask.
    pub active2: i32,
    /// Reference position for the selected object.
    pub refpos: [Real; 3],
    /// Reference orientation for the selected object.
    pub refquat: [Real; 4],
    /// Reference position of the selection point.
    pub refselpos: [Real; 3],
    /// Selection point in the object's frame.
    pub localpos: [Real; 3],
    /// Effective mass at the selection point (set by `init_perturb`).
    pub localmass: Real,
    /// Relative mouse motion to space scaling.
    pub scale: Real,
}

impl Default for Perturb {
    /// `mjv_defaultPerturb`: nothing selected, nothing perturbed.
    fn default() -> Self {
        Perturb {
            select: 0,
            flexselect: -1,
            skinselect: -1,
            active: 0,
            active2: 0,
            refpos: [0.0; 3],
            refquat: [1.0, 0.0, 0.0, 0.0],
            refselpos: [0.0; 3],
            localpos: [0.0; 3],
            localmass: 0.0,
            scale: 1.0,
        }
    }
}

/// One abstract geom of the scene (`mjvGeom`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VisGeom {
    /// Geom type (`mjtGeom`, including the decor types from 100).
    pub type_: i32,
    /// Mesh, height field or plane number; -1 for none.
    pub dataid: i32,
    /// Object type (`mjtObj`).
    pub objtype: i32,
    /// Object id.
    pub objid: i32,
    /// Visual category (`CAT_*`).
    pub category: i32,
    /// Texture id; -1 for none.
    pub texid: i32,
    /// Uniform cube mapping.
    pub texuniform: i32,
    /// Mesh geom has texture coordinates.
    pub texcoord: i32,
    /// Segmentation id: the geom's index in the scene.
    pub segid: i32,
    /// Texture repetition for 2D mapping.
    pub texrepeat: [f32; 2],
    /// Size parameters.
    pub size: [f32; 3],
    /// Cartesian position.
    pub pos: [f32; 3],
    /// Cartesian orientation (row-major 3x3).
    pub mat: [f32; 9],
    /// Color and transparency.
    pub rgba: [f32; 4],
    /// Emission coefficient.
    pub emission: f32,
    /// Specular coefficient.
    pub specular: f32,
    /// Shininess coefficient.
    pub shininess: f32,
    /// Reflectance coefficient.
    pub reflectance: f32,
    /// Text label.
    pub label: String,
    /// Distance to the camera (the renderer sorts by it).
    pub camdist: f32,
    /// Geom's rbound from the model (0 if not a model geom).
    pub modelrbound: f32,
    /// Treat as transparent when rendering.
    pub transparent: u8,
}

impl VisGeom {
    /// Takes the object, category and segmentation id of `start`, the slot a category
    /// reserved for this geom before building it (MuJoCo's `START` fills them first).
    pub(crate) fn take_slot(&mut self, start: &VisGeom) {
        (self.objtype, self.objid, self.category, self.segid) =
            (start.objtype, start.objid, start.category, start.segid);
    }
}

/// One light of the scene (`mjvLight`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VisLight {
    /// Position.
    pub pos: [f32; 3],
    /// Direction.
    pub dir: [f32; 3],
    /// OpenGL attenuation (constant, linear, quadratic).
    pub attenuation: [f32; 3],
    /// Spot cutoff angle.
    pub cutoff: f32,
    /// Spot exponent.
    pub exponent: f32,
    /// Ambient rgb.
    pub ambient: [f32; 3],
    /// Diffuse rgb.
    pub diffuse: [f32; 3],
    /// Specular rgb.
    pub specular: [f32; 3],
    /// The headlight.
    pub headlight: u8,
    /// Directional light.
    pub directional: u8,
    /// Casts shadows.
    pub castshadow: u8,
    /// Bulb radius for soft shadows.
    pub bulbradius: f32,
}

/// One of the two OpenGL cameras of a scene, left and right eye (`mjvGLCamera`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GlCamera {
    /// Position.
    pub pos: [f32; 3],
    /// Forward direction.
    pub forward: [f32; 3],
    /// Up direction.
    pub up: [f32; 3],
    /// Horizontal center of the frustum (in the near plane).
    pub frustum_center: f32,
    /// Width of the frustum.
    pub frustum_width: f32,
    /// Bottom of the frustum.
    pub frustum_bottom: f32,
    /// Top of the frustum.
    pub frustum_top: f32,
    /// Near plane distance.
    pub frustum_near: f32,
    /// Far plane distance.
    pub frustum_far: f32,
}

/// Rendering flags of a scene (`mjtRndFlag`), indices into `Scene::flags`.
pub mod rnd {
    /// Shadows from lights that cast them.
    pub const SHADOW: usize = 0;
    /// Polygons as outlines.
    pub const WIREFRAME: usize = 1;
    /// Mirror images in reflective planes and boxes.
    pub const REFLECTION: usize = 2;
    /// Additive blending of transparent geoms.
    pub const ADDITIVE: usize = 3;
    /// The skybox texture around the viewer.
    pub const SKYBOX: usize = 4;
    /// Linear fog.
    pub const FOG: usize = 5;
    /// Haze at the horizon of the first infinite plane.
    pub const HAZE: usize = 6;
    /// Flat colours per object instead of shading.
    pub const SEGMENT: usize = 7;
    /// With SEGMENT: colours that encode the segmentation id.
    pub const IDCOLOR: usize = 8;
    /// Cull back faces.
    pub const CULL_FACE: usize = 9;
    /// Number of flags.
    pub const N: usize = 10;
    /// MuJoCo's defaults (`mjv_defaultScene`).
    pub const DEFAULT: [u8; N] = [1, 0, 1, 0, 1, 0, 1, 0, 0, 1];

    /// Rendering flags (`mjRNDSTRING`): name and shortcut key.
    pub const STRINGS: [(&str, &str); N] = [
        ("Shadow", "S"),
        ("Wireframe", "W"),
        ("Reflection", "R"),
        ("Additive", "L"),
        ("Skybox", "K"),
        ("Fog", "G"),
        ("Haze", "/"),
        ("Segment", ","),
        ("Id Color", ""),
        ("Cull Face", ""),
    ];
}

/// Stereo modes (`mjtStereo`).
pub mod stereo {
    /// One image.
    pub const NONE: i32 = 0;
    /// Left and right eye in the two halves of the viewport (also used for quad-buffered
    /// stereo, which needs hardware this renderer does not drive).
    pub const SIDEBYSIDE: i32 = 2;
}

/// The abstract scene (`mjvScene`): geoms, lights and the stereo cameras. Geoms past
/// `maxgeom` are dropped with MuJoCo's `mjWARN_VGEOMFULL` warning in the data.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// Most geoms the scene holds.
    pub maxgeom: usize,
    /// The geoms.
    pub geoms: Vec<VisGeom>,
    /// The lights (at most [`MAXLIGHT`]).
    pub lights: Vec<VisLight>,
    /// Left and right eye.
    pub camera: [GlCamera; 2],
    /// Number of flexes the flex arrays below were made for (`nflex`).
    pub nflex: usize,
    /// First edge of each flex (`flexedgeadr`, the model's `flex_edgeadr`).
    pub flexedgeadr: Vec<i32>,
    /// Edges of each flex (`flexedgenum`).
    pub flexedgenum: Vec<i32>,
    /// First vertex of each flex (`flexvertadr`).
    pub flexvertadr: Vec<i32>,
    /// Vertices of each flex (`flexvertnum`).
    pub flexvertnum: Vec<i32>,
    /// First face of each flex in the face arrays (`flexfaceadr`).
    pub flexfaceadr: Vec<i32>,
    /// Room for faces of each flex (`flexfacenum`).
    pub flexfacenum: Vec<i32>,
    /// Faces of each flex in use (`flexfaceused`).
    pub flexfaceused: Vec<i32>,
    /// Vertex pairs of the edges, within their flex (`flexedge`).
    pub flexedge: Vec<i32>,
    /// Vertex positions, 3 per flex vertex (`flexvert`).
    pub flexvert: Vec<f32>,
    /// Face vertex positions, 9 per face (`flexface`).
    pub flexface: Vec<f32>,
    /// Face vertex normals, 9 per face (`flexnormal`).
    pub flexnormal: Vec<f32>,
    /// Face texture coordinates, 6 per face (`flextexcoord`).
    pub flextexcoord: Vec<f32>,
    /// The flex vertex flag of the last update (`flexvertopt`).
    pub flexvertopt: u8,
    /// The flex edge flag of the last update (`flexedgeopt`).
    pub flexedgeopt: u8,
    /// The flex face flag of the last update (`flexfaceopt`).
    pub flexfaceopt: u8,
    /// The flex skin flag of the last update (`flexskinopt`).
    pub flexskinopt: u8,
    /// Skinned vertex positions, 3 per skin vertex of the model (`skinvert`).
    pub skinvert: Vec<f32>,
    /// Skinned vertex normals (`skinnormal`).
    pub skinnormal: Vec<f32>,
    /// Apply the model transformation below.
    pub enabletransform: u8,
    /// Model translation.
    pub translate: [f32; 3],
    /// Model rotation (quaternion).
    pub rotate: [f32; 4],
    /// Model scaling.
    pub scale: f32,
    /// Rendering flags ([`rnd`]).
    pub flags: [u8; rnd::N],
    /// Stereo mode ([`stereo`]).
    pub stereo: i32,
    /// Width in pixels of the frame drawn around the viewport (0: none).
    pub framewidth: i32,
    /// Colour of that frame.
    pub framergb: [f32; 3],
    /// Model geom colours set by plugins (MuJoCo's plugins write the model's `geom_rgba`;
    /// mjrs keeps them here, per geom, and they stay until the scene is dropped).
    pub plugin_rgba: Vec<Option<[f32; 4]>>,
}

impl Scene {
    /// An empty scene for up to `maxgeom` geoms (`mjv_makeScene`).
    pub fn new(maxgeom: usize) -> Self {
        Scene {
            maxgeom,
            geoms: Vec::with_capacity(maxgeom.min(1 << 16)),
            lights: Vec::new(),
            camera: Default::default(),
            nflex: 0,
            flexedgeadr: Vec::new(),
            flexedgenum: Vec::new(),
            flexvertadr: Vec::new(),
            flexvertnum: Vec::new(),
            flexfaceadr: Vec::new(),
            flexfacenum: Vec::new(),
            flexfaceused: Vec::new(),
            flexedge: Vec::new(),
            flexvert: Vec::new(),
            flexface: Vec::new(),
            flexnormal: Vec::new(),
            flextexcoord: Vec::new(),
            flexvertopt: 0,
            flexedgeopt: 0,
            flexfaceopt: 0,
            flexskinopt: 0,
            skinvert: Vec::new(),
            skinnormal: Vec::new(),
            enabletransform: 0,
            translate: [0.0; 3],
            rotate: [1.0, 0.0, 0.0, 0.0],
            scale: 1.0,
            flags: rnd::DEFAULT,
            stereo: stereo::NONE,
            framewidth: 0,
            framergb: [0.0; 3],
            plugin_rgba: Vec::new(),
        }
    }
}
