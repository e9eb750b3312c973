//! Composite objects (`mjCComposite`, MJCF `composite`): a particle set, a grid, a cable, a
//! loop, a soft box, cylinder or ellipsoid, expanded into plain bodies, joints, geoms, sites,
//! tendons, equality constraints, contact exclusions and skins of the model specification.
//!
//! As in MuJoCo 3.1.6 the expansion happens while reading (the reader fills a [`Composite`]
//! and calls [`Composite::make`]), so the compiler and the writer see only ordinary elements.
//! The generated elements take their values from the composite's own element defaults (MuJoCo's
//! built-in defaults plus the `composite` children), not from the model's default classes; they
//! belong to the class of the enclosing body. Deprecated types: `rope` and `cloth` are refused,
//! `loop` still works (with MuJoCo's deprecation warning).

mod cable;
mod skin;

use crate::spec::*;
use crate::util::{cube_tetrahedra, dot3, mju_max, normvec, MINVAL};
use mjrs_core::types::*;

/// Composite types (`mjtCompType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompType {
    /// Free particles.
    Particle,
    /// 1D or 2D grid of particles held by tendons.
    Grid,
    /// Chain of capsules, cylinders or boxes connected by ball joints.
    Cable,
    /// Deprecated, refused.
    Rope,
    /// Closed chain (deprecated, still made).
    Loop,
    /// Deprecated, refused.
    Cloth,
    /// Soft box.
    Box,
    /// Soft cylinder.
    Cylinder,
    /// Soft ellipsoid.
    Ellipsoid,
}

/// The `type` keywords (`comp_map`).
pub const COMP_TYPES: &[(&str, CompType)] = &[
    ("particle", CompType::Particle),
    ("grid", CompType::Grid),
    ("rope", CompType::Rope),
    ("loop", CompType::Loop),
    ("cable", CompType::Cable),
    ("cloth", CompType::Cloth),
    ("box", CompType::Box),
    ("cylinder", CompType::Cylinder),
    ("ellipsoid", CompType::Ellipsoid),
];

/// Element kinds (`mjtCompKind`), indices of [`Composite::add`] and [`Composite::def`].
pub mod kind {
    /// Main joints.
    pub const JOINT: usize = 0;
    /// Twist joints of a loop.
    pub const TWIST: usize = 1;
    /// Stretch joints of a loop.
    pub const STRETCH: usize = 2;
    /// Main tendons.
    pub const TENDON: usize = 3;
    /// Shear tendons of a 2D grid.
    pub const SHEAR: usize = 4;
    /// User joints of particles.
    pub const PARTICLE: usize = 5;
    /// Number of kinds.
    pub const N: usize = 6;
}

/// Joint `kind` keywords (`jkind_map`).
pub const JOINT_KINDS: &[(&str, i32)] = &[
    ("main", kind::JOINT as i32),
    ("twist", kind::TWIST as i32),
    ("stretch", kind::STRETCH as i32),
    ("particle", kind::PARTICLE as i32),
];

/// Tendon `kind` keywords (`tkind_map`).
pub const TENDON_KINDS: &[(&str, i32)] =
    &[("main", kind::TENDON as i32), ("shear", kind::SHEAR as i32)];

/// Cable curve shapes (`mjtCompShape`); -1 marks an unknown keyword, as MuJoCo's `FindKey`.
pub mod shape {
    /// `s`: the arc length.
    pub const LINE: i32 = 0;
    /// `cos(s)`.
    pub const COS: i32 = 1;
    /// `sin(s)`.
    pub const SIN: i32 = 2;
    /// `0`.
    pub const ZERO: i32 = 3;
}

/// Curve keywords (`shape_map`).
pub const SHAPES: &[(&str, i32)] = &[
    ("s", shape::LINE),
    ("cos(s)", shape::COS),
    ("sin(s)", shape::SIN),
    ("0", shape::ZERO),
];

/// The element defaults of one kind (the parts of an `mjCDef` a composite uses).
#[derive(Clone, Debug, Default)]
pub struct KindDefaults {
    /// Geom.
    pub geom: Geom,
    /// Site.
    pub site: Site,
    /// Tendon.
    pub tendon: Tendon,
    /// Equality constraint (`solreffix`, `solimpfix`).
    pub equality: Equality,
}

/// The `skin` child of a composite.
#[derive(Clone, Debug)]
pub struct SkinOptions {
    /// Generate texture coordinates.
    pub texcoord: bool,
    /// Material.
    pub material: String,
    /// Colour.
    pub rgba: [f32; 4],
    /// Inflation along the normals.
    pub inflate: f32,
    /// Subgrid points between grid points (2D only); 0: none.
    pub subgrid: i32,
    /// Group.
    pub group: i32,
}

impl Default for SkinOptions {
    fn default() -> Self {
        Self {
            texcoord: false,
            material: String::new(),
            rgba: [1.0; 4],
            inflate: 0.0,
            subgrid: 0,
            group: 0,
        }
    }
}

/// A composite object being made (`mjCComposite`).
#[derive(Clone, Debug)]
pub struct Composite {
    /// Prefix of every generated name.
    pub prefix: String,
    /// Type.
    pub ctype: CompType,
    /// Element count in each dimension.
    pub count: [i32; 3],
    /// Spacing between elements.
    pub spacing: f64,
    /// Position offset of particles, grids and cables.
    pub offset: [f64; 3],
    /// Pinned grid elements, coordinate pairs.
    pub pin: Vec<i32>,
    /// Smoothing equality solref.
    pub solrefsmooth: [f64; NREF],
    /// Smoothing equality solimp.
    pub solimpsmooth: [f64; NIMP],
    /// Boundary condition of a cable's first body: `ball`, `free` or `none`.
    pub initial: String,
    /// User vertices (single precision, as MuJoCo keeps them).
    pub uservert: Vec<f32>,
    /// User faces of particles (1-based in the file, 0-based after [`Self::make`]).
    pub userface: String,
    /// Cable size (meaning set by the curve).
    pub size: [f64; 3],
    /// Cable curve per coordinate ([`shape`]).
    pub curve: [i32; 3],
    /// The plugin of every generated body, with its implicit instance when it has one.
    pub plugin: Option<PluginRef>,
    /// The skin, when one is requested.
    pub skin: Option<SkinOptions>,
    /// Which kinds the file gave.
    pub add: [bool; kind::N],
    /// Element defaults per kind.
    pub def: [KindDefaults; kind::N],
    /// Joint defaults per kind (several only for particles).
    pub defjoint: [Vec<Joint>; kind::N],
    /// Dimensionality.
    dim: usize,
    /// Names of generated particle bodies (used by the skin).
    username: Vec<String>,
}

/// What a composite needs to know about where it is made: the body it is made in and the
/// default class of that body (the class of the generated elements).
#[derive(Clone, Copy, Debug)]
pub struct Parent {
    /// The enclosing body.
    pub body: usize,
    /// Its default class.
    pub default: usize,
}

/// The softness levels of `AdjustSoft`.
fn adjust_soft(solref: &mut [f64; NREF], solimp: &mut [f64; NIMP], level: u8) {
    if level == 0 {
        solref[0] = 0.01;
        solimp[0] = 0.99;
        solimp[1] = 0.99;
    } else {
        solref[0] = 0.02;
        solimp[0] = 0.9;
        solimp[1] = 0.9;
    }
}

/// A joint default as `AddDefaultJoint` makes it: MuJoCo's defaults in group 3.
fn default_joint() -> Joint {
    Joint {
        group: 3,
        ..Joint::default()
    }
}

impl Composite {
    /// `mjCComposite` as constructed, of type `ctype`.
    pub fn new(ctype: CompType) -> Self {
        Self {
            prefix: String::new(),
            ctype,
            count: [1; 3],
            spacing: 0.0,
            offset: [0.0; 3],
            pin: Vec::new(),
            solrefsmooth: SOLREF_DEFAULT,
            solimpsmooth: SOLIMP_DEFAULT,
            initial: "ball".into(),
            uservert: Vec::new(),
            userface: String::new(),
            size: [1.0, 0.0, 0.0],
            curve: [shape::ZERO; 3],
            plugin: None,
            skin: None,
            add: [false; kind::N],
            def: Default::default(),
            defjoint: Default::default(),
            dim: 0,
            username: Vec::new(),
        }
    }

    /// `AddDefaultJoint`: one more joint default of every kind; only particles may have
    /// several joints of a kind.
    pub fn add_default_joint(&mut self) -> Result<(), String> {
        for k in 0..kind::N {
            if !self.defjoint[k].is_empty() && self.ctype != CompType::Particle {
                return Err("Only particles are allowed to have multiple joints".into());
            }
            self.defjoint[k].push(default_joint());
        }
        Ok(())
    }

    /// `SetDefault`: the type's element defaults, after the top-level attributes and the skin
    /// are read and before the element children are.
    pub fn set_default(&mut self) {
        let tmpdim = self.count.iter().filter(|&&c| c > 1).count();
        for d in &mut self.def {
            d.geom.group = 3;
            d.site.group = 3;
            d.tendon.group = 3;
        }
        for j in &mut self.defjoint {
            j.push(default_joint());
        }
        let visible = self.skin.is_none()
            || matches!(
                self.ctype,
                CompType::Particle | CompType::Rope | CompType::Loop | CompType::Cable
            )
            || (self.ctype == CompType::Grid && tmpdim == 1);
        if visible {
            for d in &mut self.def {
                d.geom.group = 0;
                d.tendon.group = 0;
            }
        }
        match self.ctype {
            CompType::Particle => {
                // no friction with anything
                self.def[0].geom.condim = 1;
                self.def[0].geom.priority = 1;
            }
            CompType::Grid => {
                let eq = &mut self.def[kind::TENDON].equality;
                adjust_soft(&mut eq.solref, &mut eq.solimp, 0);
            }
            CompType::Loop => adjust_soft(&mut self.solrefsmooth, &mut self.solimpsmooth, 0),
            CompType::Box | CompType::Cylinder | CompType::Ellipsoid => {
                // no self-collisions, soft smoothing and fixes, a hard main tendon fix
                self.def[0].geom.contype = 0;
                adjust_soft(&mut self.solrefsmooth, &mut self.solimpsmooth, 1);
                for d in &mut self.def {
                    adjust_soft(&mut d.equality.solref, &mut d.equality.solimp, 1);
                }
                let eq = &mut self.def[kind::TENDON].equality;
                adjust_soft(&mut eq.solref, &mut eq.solimp, 0);
            }
            CompType::Cable | CompType::Rope | CompType::Cloth => {}
        }
    }

    /// `Make`: checks the composite and adds its elements to `spec` inside body `at.body`.
    /// Errors carry MuJoCo's text; `warnings` gets MuJoCo's warnings.
    pub fn make(
        &mut self,
        spec: &mut Spec,
        at: Parent,
        warnings: &mut Vec<String>,
    ) -> Result<(), String> {
        self.check()?;
        if let Some(p) = &mut self.plugin {
            if p.instance.is_empty() {
                p.instance = format!("composite{}", self.prefix);
                if let Some(i) = p.implicit {
                    // a named instance of a known plugin, as MuJoCo writes it back
                    let slot = spec.active_plugins.iter().find(|(n, _)| *n == p.plugin);
                    let inst = &mut spec.plugins[i];
                    inst.name.clone_from(&p.instance);
                    inst.slot = inst.slot.or(slot.map(|&(_, s)| s));
                }
            }
        }
        let mut maker = Maker { c: self, spec, at };
        match maker.c.ctype {
            CompType::Particle => maker.particle(),
            CompType::Grid => maker.grid(),
            CompType::Rope => Err(
                "The \"rope\" composite type is deprecated. Please use \"cable\" instead.".into(),
            ),
            CompType::Loop => {
                warnings.push(
                    "The \"loop\" composite type is deprecated. Please use \"cable\" instead."
                        .into(),
                );
                maker.rope()
            }
            CompType::Cable => maker.cable(),
            CompType::Cloth => Err(
                "The \"cloth\" composite type is deprecated. Please use \"shell\" instead.".into(),
            ),
            CompType::Box | CompType::Cylinder | CompType::Ellipsoid => maker.soft_box(),
        }
    }

    /// The checks of `Make` before dispatch; sets the dimensionality and takes the vertex
    /// count from the user vertices.
    fn check(&mut self) -> Result<(), String> {
        let g = &self.def[0].geom;
        let round = matches!(g.gtype, GEOM_SPHERE | GEOM_CAPSULE | GEOM_ELLIPSOID);
        if !round && self.ctype != CompType::Particle && self.ctype != CompType::Cable {
            return Err("Composite geom type must be sphere, capsule or ellipsoid".into());
        }
        if self.count.iter().any(|&c| c < 1) {
            return Err("Positive counts expected in composite".into());
        }
        if self.ctype == CompType::Grid
            || (self.ctype == CompType::Particle && self.uservert.is_empty())
        {
            self.check_spacing()?;
        }
        if dot3(&self.size, &self.size) < MINVAL && self.uservert.is_empty() {
            return Err("Positive spacing or length expected in composite".into());
        }
        if self.spacing != 0.0 && self.ctype == CompType::Cable {
            return Err("Spacing is not supported by cable composite".into());
        }
        if !self.uservert.is_empty() {
            if self.count[0] > 1 {
                return Err("Either vertex or count can be specified, not both".into());
            }
            self.count[0] = i32::try_from(self.uservert.len() / 3)
                .map_err(|_| "too many vertices in composite".to_string())?;
            self.count[1] = 1;
        }
        let mut singleton = false;
        for &c in &self.count {
            if c == 1 {
                singleton = true;
            } else {
                self.dim += 1;
                if singleton {
                    return Err("Singleton counts must come last".into());
                }
            }
        }
        if let Some(s) = &self.skin {
            if s.subgrid > 0
                && self.ctype != CompType::Cable
                && (self.count[0] < 3 || self.count[1] < 3)
            {
                return Err("At least 3x3 required for skin subgrid".into());
            }
        }
        self.check_size()
    }

    /// Bounds what a file can ask for: the elements, and the vertices and weight tables of a
    /// subgrid skin (MuJoCo has no bound but its `int` sizes).
    fn check_size(&self) -> Result<(), String> {
        let total = self
            .count
            .iter()
            .try_fold(1i64, |a, &c| a.checked_mul(i64::from(c)))
            .filter(|&n| n <= MAX_ELEMENTS);
        if total.is_none() {
            return Err(format!(
                "a composite of more than {MAX_ELEMENTS} elements is not supported by mjrs"
            ));
        }
        let sub = self
            .skin
            .as_ref()
            .map_or(0, |s| i64::from(s.subgrid.max(0)));
        let fine = |c: i32| i64::from(c) + i64::from(c - 1) * sub;
        let vertices = fine(self.count[0]) * fine(self.count[1] + 2);
        let table = (2 + sub) * (2 + sub) * 16 * 9;
        if vertices > MAX_SKIN_VALUES || table > MAX_SKIN_VALUES {
            return Err(format!(
                "a composite skin subgrid of more than {MAX_SKIN_VALUES} vertices or weights is \
                 not supported by mjrs"
            ));
        }
        Ok(())
    }

    fn check_spacing(&self) -> Result<(), String> {
        let s = &self.def[0].geom.size;
        if self.spacing < mju_max(s[0], mju_max(s[1], s[2])) {
            return Err("Spacing must be larger than geometry size".into());
        }
        Ok(())
    }
}

/// The most elements (bodies of particles and grids, edges of cables, shell bodies) one
/// composite may make: each takes a few kilobytes of specification before compiling, and
/// MuJoCo's own models have at most a thousand.
const MAX_ELEMENTS: i64 = 1 << 16;

/// The most vertices of a subgrid skin, and entries of its weight tables.
const MAX_SKIN_VALUES: i64 = 1 << 22;

/// A composite being expanded into a specification.
struct Maker<'a> {
    c: &'a mut Composite,
    spec: &'a mut Spec,
    at: Parent,
}

impl Maker<'_> {
    /// A new body named `name` under `parent`, in the enclosing body's class.
    fn add_body(&mut self, parent: usize, name: String, pos: [f64; 3]) -> usize {
        let id = self.spec.bodies.len();
        let mut b = Body::new(Some(parent), self.spec.bodies[parent].default);
        b.name = name;
        b.pos = pos;
        self.spec.bodies.push(b);
        self.spec.bodies[parent].bodies.push(id);
        id
    }

    /// The class name and index of generated body elements.
    fn body_class(&self) -> (String, usize) {
        let d = self.at.default;
        (self.spec.defaults[d].name.clone(), d)
    }

    /// A joint made from `j` in the enclosing body's class.
    fn joint(&self, j: &Joint) -> Joint {
        let (classname, default) = self.body_class();
        Joint {
            classname,
            default,
            ..j.clone()
        }
    }

    /// A geom made from the composite's geom default.
    fn geom(&self) -> Geom {
        let (classname, default) = self.body_class();
        Geom {
            classname,
            default,
            ..self.c.def[0].geom.clone()
        }
    }

    /// A site made from the composite's site default.
    fn site(&self) -> Site {
        let (classname, default) = self.body_class();
        Site {
            classname,
            default,
            ..self.c.def[0].site.clone()
        }
    }

    /// The main class name (generated tendons and equalities belong to it).
    fn main_class(&self) -> String {
        self.spec.defaults[0].name.clone()
    }

    /// A tendon of kind `k` named `name`.
    fn tendon(&self, k: usize, name: String) -> Tendon {
        Tendon {
            name,
            classname: self.main_class(),
            ..self.c.def[k].tendon.clone()
        }
    }

    /// A spatial tendon of kind `k` between two sites, with its equality constraint.
    fn site_tendon(&mut self, k: usize, name: String, s1: String, s2: String, group: Option<i32>) {
        let mut t = self.tendon(k, name.clone());
        if let Some(g) = group {
            t.group = g;
        }
        t.spatial = true;
        for s in [s1, s2] {
            t.path.push(Wrap::Site {
                name: s,
                info: Info::default(),
            });
        }
        self.spec.tendons.push(t);
        self.fix(k, EQ_TENDON, name);
    }

    /// An equality constraint of kind `k`'s defaults fixing object `name1`.
    fn fix(&mut self, k: usize, etype: i32, name1: String) {
        let q = Equality {
            etype,
            name1,
            classname: self.main_class(),
            ..self.c.def[k].equality.clone()
        };
        self.spec.equalities.push(q);
    }

    /// An equality constraint from the main class with the composite's smoothing softness.
    fn smooth(&mut self, etype: i32, name1: String, name2: String) -> &mut Equality {
        let q = Equality {
            etype,
            name1,
            name2,
            classname: self.main_class(),
            solref: self.c.solrefsmooth,
            solimp: self.c.solimpsmooth,
            ..self.spec.defaults[0].equality.clone()
        };
        self.spec.equalities.push(q);
        self.spec.equalities.last_mut().expect("just pushed")
    }

    fn exclude(&mut self, b1: String, b2: String) {
        self.spec.excludes.push(Exclude {
            bodyname1: b1,
            bodyname2: b2,
            ..Exclude::default()
        });
    }

    /// The composite's plugin on body `b`.
    fn body_plugin(&mut self, b: usize) {
        if let Some(p) = &self.c.plugin {
            self.spec.bodies[b].plugin = Some(p.clone());
        }
    }

    /// The plugin instance of the composite (implicit, or named in `extension`).
    fn plugin_instance(&mut self) -> Option<&mut PluginInstance> {
        let p = self.c.plugin.as_ref()?;
        match p.implicit {
            Some(i) => self.spec.plugins.get_mut(i),
            None => self.spec.plugins.iter_mut().find(|x| x.name == p.instance),
        }
    }

    /// Three slide joints along the axes, from `j`.
    fn sliders(&mut self, b: usize, j: &Joint, names: Option<[String; 3]>) {
        for i in 0..3 {
            let mut jnt = self.joint(j);
            jnt.jtype = JNT_SLIDE;
            jnt.pos = [0.0; 3];
            jnt.axis = [0.0; 3];
            jnt.axis[i] = 1.0;
            if let Some(n) = &names {
                jnt.name.clone_from(&n[i]);
            }
            self.spec.bodies[b].joints.push(jnt);
        }
    }

    /// `MakeParticle`.
    fn particle(&mut self) -> Result<(), String> {
        let c = &mut *self.c;
        let pre = c.prefix.clone();
        if c.uservert.is_empty() {
            c.check_spacing()?;
            for ix in 0..c.count[0] {
                for iy in 0..c.count[1] {
                    for iz in 0..c.count[2] {
                        for (i, n) in [ix, iy, iz].into_iter().enumerate() {
                            let v = c.spacing * (f64::from(n) - 0.5 * f64::from(c.count[i]));
                            c.uservert.push(v as f32);
                        }
                        c.username.push(format!("{pre}B{ix}_{iy}_{iz}"));
                    }
                }
            }
        }
        let face = self.particle_faces()?;
        let nvert = self.c.uservert.len() / 3;
        let volume = self.particle_volume(&face, nvert)?;
        let c = &*self.c;
        let jmain = c.defjoint[kind::JOINT][0].clone();
        let jparticle = c.defjoint[kind::PARTICLE].clone();
        let user_joints = c.add[kind::PARTICLE];
        let dim = c.dim;
        for i in 0..nvert {
            let name = match self.c.username.get(i) {
                Some(n) => n.clone(),
                None => format!("{pre}B{i}"),
            };
            let v = &self.c.uservert[3 * i..3 * i + 3];
            let o = self.c.offset;
            let pos = [
                o[0] + f64::from(v[0]),
                o[1] + f64::from(v[1]),
                o[2] + f64::from(v[2]),
            ];
            let b = self.add_body(self.at.body, name, pos);
            if user_joints {
                for j in &jparticle {
                    let jnt = self.joint(j);
                    self.spec.bodies[b].joints.push(jnt);
                }
            } else {
                self.sliders(b, &jmain, None);
            }
            let mut g = self.geom();
            let mut s = self.site();
            s.stype = GEOM_SPHERE;
            s.name = format!("{pre}S{i}");
            if self.c.plugin.is_some() {
                self.body_plugin(b);
                let userface = self.c.userface.clone();
                let inst = self
                    .plugin_instance()
                    .ok_or("unknown plugin instance of composite")?;
                let old = inst.config.entry("face".into()).or_default();
                if i == 0 && !old.is_empty() {
                    return Err("Face attribute already exists in plugin".into());
                }
                *old = userface;
                inst.config.insert("edge".into(), String::new());
                if dim == 2 {
                    let ball = 4.0 / 3.0 * core::f64::consts::PI * g.size[0].powf(3.0);
                    g.density *= volume[i] / ball;
                }
            }
            self.spec.bodies[b].geoms.push(g);
            self.spec.bodies[b].sites.push(s);
        }
        if dim == 2 {
            self.isometry(&face);
        }
        if self.c.skin.is_some() && dim == 3 {
            self.skin3();
        }
        if self.c.skin.is_some() && dim == 2 {
            self.skin2_any();
        }
        Ok(())
    }

    /// The faces of a particle set: tetrahedra of a 3D grid, triangles of a 2D grid, or the
    /// user's (1-based) triangles; leaves them, 0-based, in `userface`.
    fn particle_faces(&mut self) -> Result<Vec<i32>, String> {
        let c = &mut *self.c;
        let [c0, c1, c2] = c.count;
        let mut face = Vec::new();
        if c.userface.is_empty() {
            let at = |x: i32, y: i32, z: i32| c2 * c1 * x + c2 * y + z;
            if c.dim == 3 {
                for ix in 0..c0 - 1 {
                    for iy in 0..c1 - 1 {
                        for iz in 0..c2 - 1 {
                            let v = [
                                at(ix, iy, iz),
                                at(ix + 1, iy, iz),
                                at(ix + 1, iy + 1, iz),
                                at(ix, iy + 1, iz),
                                at(ix, iy, iz + 1),
                                at(ix + 1, iy, iz + 1),
                                at(ix + 1, iy + 1, iz + 1),
                                at(ix, iy + 1, iz + 1),
                            ];
                            for t in cube_tetrahedra(v) {
                                face.extend(t);
                            }
                        }
                    }
                }
            } else if c.dim == 2 {
                for ix in 0..c0 - 1 {
                    for iy in 0..c1 - 1 {
                        let v = [
                            at(ix, iy, 0),
                            at(ix + 1, iy, 0),
                            at(ix + 1, iy + 1, 0),
                            at(ix, iy + 1, 0),
                        ];
                        face.extend([v[0], v[1], v[2], v[0], v[2], v[3]]);
                    }
                }
            }
        } else {
            // a user surface
            c.dim = 2;
            face = crate::reader::attr::string_to_vec::<i32>(&c.userface);
            for f in &mut face {
                *f = f.wrapping_sub(1);
            }
        }
        let nvert = c.uservert.len() / 3;
        if face.iter().any(|&f| f < 0 || f as usize >= nvert) {
            return Err("composite face index out of range".into());
        }
        c.userface = vector_to_string(&face);
        Ok(face)
    }

    /// The volume each particle stands for: a third of its triangles' area (thickness from
    /// the plugin for 2D), or a constant without faces.
    fn particle_volume(&mut self, face: &[i32], nvert: usize) -> Result<Vec<f64>, String> {
        let mut t = 1.0;
        if self.c.dim == 2 && self.c.plugin.is_some() {
            let inst = self
                .plugin_instance()
                .ok_or("unknown plugin instance of composite")?;
            let text = inst.config.entry("thickness".into()).or_default().clone();
            t = stod(&text).ok_or("Invalid thickness attribute")?;
        }
        let mut volume = vec![0.0; nvert];
        if face.is_empty() {
            let sp = self.c.spacing;
            volume.fill(6.0 * sp * sp / 2.0 * t);
            return Ok(volume);
        }
        let v = &self.c.uservert;
        for tri in face.chunks_exact(3) {
            let [a, b, d] = [tri[0] as usize, tri[1] as usize, tri[2] as usize];
            let e1: [f64; 3] = core::array::from_fn(|i| f64::from(v[3 * b + i] - v[3 * a + i]));
            let e2: [f64; 3] = core::array::from_fn(|i| f64::from(v[3 * d + i] - v[3 * a + i]));
            let area = crate::util::crossvec(&e1, &e2);
            for &k in tri {
                volume[k as usize] += dot3(&area, &area).sqrt() / 2.0 * t;
            }
        }
        Ok(volume)
    }

    /// Tendons fixed to their length along every edge of a 2D particle surface.
    fn isometry(&mut self, face: &[i32]) {
        let pre = self.c.prefix.clone();
        let mut edges: Vec<(i32, i32)> = face
            .chunks_exact(3)
            .flat_map(|t| (0..3).map(move |j| (t[j], t[(j + 1) % 3])))
            .map(|(a, b)| if a < b { (a, b) } else { (b, a) })
            .collect();
        edges.sort_unstable();
        edges.dedup();
        for (v0, v1) in edges {
            self.site_tendon(
                kind::TENDON,
                format!("{pre}T{v0}_{v1}"),
                format!("{pre}S{v0}"),
                format!("{pre}S{v1}"),
                Some(4),
            );
        }
    }

    /// `MakeGrid`.
    fn grid(&mut self) -> Result<(), String> {
        let c = &*self.c;
        if c.dim > 2 {
            return Err("Grid can only be 1D or 2D".into());
        }
        if c.add[kind::SHEAR] && c.dim != 2 {
            return Err("Shear requires 2D grid".into());
        }
        if c.skin.is_some() && c.dim != 2 {
            return Err("Skin requires 2D grid".into());
        }
        let pre = c.prefix.clone();
        let [c0, c1, _] = c.count;
        let jmain = c.defjoint[kind::JOINT][0].clone();
        for ix in 0..c0 {
            for iy in 0..c1 {
                let (sp, o) = (self.c.spacing, self.c.offset);
                let pos = [
                    o[0] + sp * (f64::from(ix) - 0.5 * f64::from(c0)),
                    o[1] + sp * (f64::from(iy) - 0.5 * f64::from(c1)),
                    o[2],
                ];
                let b = self.add_body(self.at.body, format!("{pre}B{ix}_{iy}"), pos);
                let mut g = self.geom();
                g.gtype = GEOM_SPHERE;
                g.name = format!("{pre}G{ix}_{iy}");
                let mut s = self.site();
                s.stype = GEOM_SPHERE;
                s.name = format!("{pre}S{ix}_{iy}");
                self.spec.bodies[b].geoms.push(g);
                self.spec.bodies[b].sites.push(s);
                let pinned = self.c.pin.chunks_exact(2).any(|p| p[0] == ix && p[1] == iy);
                if !pinned {
                    let names = core::array::from_fn(|i| format!("{pre}J{i}_{ix}_{iy}"));
                    self.sliders(b, &jmain, Some(names));
                }
            }
        }
        for i in 0..2 {
            let (dx, dy) = (i32::from(i == 0), i32::from(i == 1));
            for ix in 0..c0 - dx {
                for iy in 0..c1 - dy {
                    self.site_tendon(
                        kind::TENDON,
                        format!("{pre}T{i}_{ix}_{iy}"),
                        format!("{pre}S{ix}_{iy}"),
                        format!("{pre}S{}_{}", ix + dx, iy + dy),
                        None,
                    );
                }
            }
        }
        if self.c.add[kind::SHEAR] {
            for ix in 0..c0 - 1 {
                for iy in 0..c1 - 1 {
                    self.site_tendon(
                        kind::SHEAR,
                        format!("{pre}TS{ix}_{iy}"),
                        format!("{pre}S{ix}_{iy}"),
                        format!("{pre}S{}_{}", ix + 1, iy + 1),
                        None,
                    );
                }
            }
        }
        if self.c.skin.is_some() {
            self.skin2_any();
        }
        Ok(())
    }

    /// `MakeRope` for a loop: a chain from the enclosing body (named `<prefix>B<index>`) to
    /// both ends, closed by a connect constraint.
    fn rope(&mut self) -> Result<(), String> {
        if self.c.dim != 1 {
            return Err("Rope must be one-dimensional".into());
        }
        let pre = self.c.prefix.clone();
        let head = format!("{pre}B");
        let root = self.spec.bodies[self.at.body].name.clone();
        let Some(rest) = root.strip_prefix(&head) else {
            return Err(format!("{head} must be the beginning of root body name"));
        };
        let ox = scan_int(rest).ok_or("Root body name must contain X coordinate")?;
        let n = self.c.count[0];
        if ox < 0 || ox >= i64::from(n) {
            return Err("Root body coordinate out of range".into());
        }
        let ox = ox as i32;
        let root = self.at.body;
        self.rope_body(root, ox, ox);
        let mut b = root;
        for ix in ox..n - 1 {
            b = self.rope_body(b, ix, ix + 1);
        }
        b = root;
        for ix in (1..=ox).rev() {
            b = self.rope_body(b, ix, ix - 1);
        }
        // close the loop
        let (b0, b1) = (format!("{pre}B0"), format!("{pre}B{}", n - 1));
        let anchor = -0.5 * self.c.spacing;
        let q = self.smooth(EQ_CONNECT, b0.clone(), b1.clone());
        q.data[..3].copy_from_slice(&[anchor, 0.0, 0.0]);
        self.exclude(b0, b1);
        Ok(())
    }

    /// `AddRopeBody`: element `ix1` of a loop as a child of `parent` (element `ix`); the root
    /// (`ix == ix1`) gets only its geom.
    fn rope_body(&mut self, parent: usize, ix: i32, ix1: i32) -> usize {
        let pre = self.c.prefix.clone();
        let isroot = ix == ix1;
        let dx = self.c.spacing * f64::from(ix1 - ix);
        let mut body = parent;
        if !isroot {
            let alpha = 2.0 * core::f64::consts::PI / f64::from(self.c.count[0]);
            let r =
                0.5 * self.c.spacing * (core::f64::consts::PI - alpha).sin() / (0.5 * alpha).sin();
            let (pos, quat) = if ix1 > ix {
                (
                    [r * (0.5 * alpha).cos(), r * (0.5 * alpha).sin(), 0.0],
                    [(0.5 * alpha).cos(), 0.0, 0.0, (0.5 * alpha).sin()],
                )
            } else {
                (
                    [-r * (0.5 * alpha).cos(), r * (0.5 * alpha).sin(), 0.0],
                    [(-0.5 * alpha).cos(), 0.0, 0.0, (-0.5 * alpha).sin()],
                )
            };
            body = self.add_body(parent, format!("{pre}B{ix1}"), pos);
            self.spec.bodies[body].quat = quat;
        }
        let mut g = self.geom();
        g.name = format!("{pre}G{ix1}");
        g.pos = [0.0; 3];
        g.quat = [0.5f64.sqrt(), 0.0, 0.5f64.sqrt(), 0.0];
        self.spec.bodies[body].geoms.push(g);
        if isroot {
            return body;
        }
        for i in 0..2 {
            let mut j = self.joint(&self.c.defjoint[kind::JOINT][0]);
            j.name = format!("{pre}J{i}_{ix1}");
            j.jtype = JNT_HINGE;
            j.pos = [-0.5 * dx, 0.0, 0.0];
            j.axis = [0.0; 3];
            j.axis[i + 1] = 1.0;
            self.spec.bodies[body].joints.push(j);
        }
        for (k, jtype, tag) in [
            (kind::TWIST, JNT_HINGE, "JT"),
            (kind::STRETCH, JNT_SLIDE, "JS"),
        ] {
            if !self.c.add[k] {
                continue;
            }
            let mut j = self.joint(&self.c.defjoint[k][0]);
            j.name = format!("{pre}{tag}{ix1}");
            j.jtype = jtype;
            j.pos = [-0.5 * dx, 0.0, 0.0];
            j.axis = [1.0, 0.0, 0.0];
            let name = j.name.clone();
            self.spec.bodies[body].joints.push(j);
            self.fix(k, EQ_JOINT, name);
        }
        body
    }

    /// `BoxProject`: a point of the [-1, 1] cube onto the box, cylinder or ellipsoid.
    fn box_project(&self, pos: &mut [f64; 3]) {
        let size: [f64; 3] =
            core::array::from_fn(|i| 0.5 * self.c.spacing * f64::from(self.c.count[i] - 1));
        match self.c.ctype {
            CompType::Box => {}
            CompType::Cylinder => {
                let l0 = mju_max(pos[0].abs(), pos[1].abs());
                normvec(&mut pos[..2]);
                pos[0] *= size[0] * l0;
                pos[1] *= size[1] * l0;
                pos[2] *= size[2];
                return;
            }
            _ => {
                normvec(&mut pos[..]);
            }
        }
        for i in 0..3 {
            pos[i] *= size[i];
        }
    }

    /// `MakeBox`: the shell of a box, cylinder or ellipsoid of bodies sliding along their
    /// radius, held by a fixed tendon of all joints and smoothed by neighbour constraints.
    fn soft_box(&mut self) -> Result<(), String> {
        if self.c.dim != 3 {
            return Err("Box and ellipsoid must be three-dimensional".into());
        }
        let pre = self.c.prefix.clone();
        let [c0, c1, c2] = self.c.count;
        let mut center = self.geom();
        center.gtype = GEOM_SPHERE;
        center.name = format!("{pre}Gcenter");
        center.pos = [0.0; 3];
        center.size[0] *= 2.0;
        center.size[1] = 0.0;
        center.size[2] = 0.0;
        self.spec.bodies[self.at.body].geoms.push(center);
        let tendon = self.spec.tendons.len();
        let t = self.tendon(kind::TENDON, format!("{pre}T"));
        self.spec.tendons.push(t);
        let shell = |x: i32, y: i32, z: i32| {
            x == 0 || x == c0 - 1 || y == 0 || y == c1 - 1 || z == 0 || z == c2 - 1
        };
        let jmain = self.c.defjoint[kind::JOINT][0].clone();
        for ix in 0..c0 {
            for iy in 0..c1 {
                for iz in 0..c2 {
                    if !shell(ix, iy, iz) {
                        continue;
                    }
                    let ends = |i: i32, n: i32| 2.0 * f64::from(i) / f64::from(n - 1) - 1.0;
                    let mut pos = [ends(ix, c0), ends(iy, c1), ends(iz, c2)];
                    self.box_project(&mut pos);
                    let b = self.add_body(self.at.body, format!("{pre}B{ix}_{iy}_{iz}"), pos);
                    // MuJoCo sets the z axis without selecting it: the body keeps its quat
                    let mut zaxis = pos;
                    normvec(&mut zaxis);
                    self.spec.bodies[b].alt.zaxis = zaxis;
                    let mut g = self.geom();
                    g.name = format!("{pre}G{ix}_{iy}_{iz}");
                    if g.gtype == GEOM_CAPSULE {
                        g.pos[2] = -(g.size[0] + g.size[1]);
                    } else {
                        g.gtype = GEOM_SPHERE;
                        g.pos[2] = -g.size[0];
                    }
                    self.spec.bodies[b].geoms.push(g);
                    let jname = format!("{pre}J{ix}_{iy}_{iz}");
                    let mut j = self.joint(&jmain);
                    j.name.clone_from(&jname);
                    j.jtype = JNT_SLIDE;
                    j.pos = [0.0; 3];
                    j.axis = [0.0, 0.0, 1.0];
                    self.spec.bodies[b].joints.push(j);
                    self.fix(kind::JOINT, EQ_JOINT, jname.clone());
                    self.spec.tendons[tendon].path.push(Wrap::Joint {
                        name: jname.clone(),
                        coef: 1.0,
                        info: Info::default(),
                    });
                    for i in 0..3 {
                        let ix1 = (ix + i32::from(i == 0)).min(c0 - 1);
                        let iy1 = (iy + i32::from(i == 1)).min(c1 - 1);
                        let iz1 = (iz + i32::from(i == 2)).min(c2 - 1);
                        if shell(ix1, iy1, iz1) && (ix, iy, iz) != (ix1, iy1, iz1) {
                            let other = format!("{pre}J{ix1}_{iy1}_{iz1}");
                            self.smooth(EQ_JOINT, jname.clone(), other);
                        }
                    }
                }
            }
        }
        self.fix(kind::TENDON, EQ_TENDON, format!("{pre}T"));
        if self.c.skin.is_some() {
            self.skin3();
        }
        Ok(())
    }
}

/// Numbers separated by single spaces (`Vector2String`).
fn vector_to_string(v: &[i32]) -> String {
    let parts: Vec<String> = v.iter().map(i32::to_string).collect();
    parts.join(" ")
}

/// The number at the start of `text` as C's `sscanf("%d")` reads it: leading white space, a
/// sign and digits; `None` without digits.
fn scan_int(text: &str) -> Option<i64> {
    let t = text.trim_start_matches([' ', '\t', '\n', '\r', '\x0b', '\x0c']);
    let (neg, t) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let digits: &str = &t[..t.bytes().take_while(u8::is_ascii_digit).count()];
    if digits.is_empty() {
        return None;
    }
    // beyond the range of int the C behaviour is undefined; saturate (out of range anyway)
    let v = digits.parse::<i64>().unwrap_or(i64::MAX);
    Some(if neg { -v } else { v })
}

/// `std::stod`: the longest number at the start of `text` (after white space); `None` when
/// there is none or it is out of range.
fn stod(text: &str) -> Option<f64> {
    let t = text.trim_start();
    let end = t.find(char::is_whitespace).unwrap_or(t.len());
    let token = &t[..end];
    (1..=token.len())
        .rev()
        .filter(|&n| token.is_char_boundary(n))
        .find_map(|n| token[..n].parse::<f64>().ok())
        .filter(|v| v.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_number_prefixes() {
        assert_eq!(scan_int("12abc"), Some(12));
        assert_eq!(scan_int(" -3"), Some(-3));
        assert_eq!(scan_int("x1"), None);
        assert_eq!(scan_int(""), None);
        assert_eq!(stod(" 0.5mm"), Some(0.5));
        assert_eq!(stod(""), None);
        assert_eq!(stod("abc"), None);
    }

    #[test]
    fn only_particles_take_several_joints_of_a_kind() {
        let mut c = Composite::new(CompType::Box);
        c.set_default();
        assert_eq!(
            c.add_default_joint().unwrap_err(),
            "Only particles are allowed to have multiple joints"
        );
        let mut p = Composite::new(CompType::Particle);
        p.set_default();
        p.add_default_joint().unwrap();
        assert_eq!(p.defjoint[kind::PARTICLE].len(), 2);
    }
}
