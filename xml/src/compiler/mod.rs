//! The model compiler: [`Spec`] to [`Model`](mjrs_core::Model) (MuJoCo's `mjCModel::Compile`, `user_model.cc`).
//!
//! [`compile`] follows MuJoCo's `TryCompile` step by step: lists of the kinematic tree's objects
//! in depth-first order, default names and ids, asset references, then the compilation of
//! meshes, bodies (with their frames, geoms, joints, sites, cameras and lights) and every other
//! object, optional fusing of static bodies, the model's sizes, the copy into a `Model`, and the
//! engine-side constants (`set_const`, automatic spring-dampers, actuator length ranges).
//!
//! Each stage lives in its own module: [`orient`] (orientation specifiers and inertia frames),
//! `tree` (bodies, frames, joints, geoms, sites, cameras, lights), `objects` (pairs,
//! excludes, equalities, tendons, actuators, sensors, custom data, keyframes), `fuse`
//! (`fusestatic`), `copy` (filling the model's arrays), `finish` (constants and statistics).

mod copy;
mod finish;
mod flex;
mod fuse;
mod objects;
pub mod orient;
mod plugin;
mod tree;

use std::collections::HashMap;

use mjrs_alloc::OwnedModel;
use mjrs_core::types::*;

use crate::asset::AssetFile;
use crate::bvh::Bvh;
use crate::error::XmlError;
use crate::hfield::CompiledHField;
use crate::limits;
use crate::mesh::{CompiledMesh, CompiledSkin};
use crate::reader::dom::Resources;
use crate::spec::{self, Info, Spec};
use crate::texture::CompiledTexture;
use crate::util::{makefullname, stripext, strippath};
use mjrs_std::ResourceError;

/// A compiled model and the warnings raised on the way.
pub struct Compilation {
    /// The model.
    pub model: OwnedModel,
    /// MuJoCo's warning texts (e.g. "XML contains a 'NaN'").
    pub warnings: Vec<String>,
}

/// A body after compilation (`mjCBody`'s compiled state).
#[derive(Clone, Debug)]
pub(crate) struct CBody {
    pub spec: usize,
    pub name: String,
    pub parentid: usize,
    pub weldid: usize,
    pub mocapid: i32,
    pub pos: [f64; 3],
    pub quat: [f64; 4],
    pub ipos: [f64; 3],
    pub iquat: [f64; 4],
    pub mass: f64,
    pub inertia: [f64; 3],
    pub fullinertia: [f64; 6],
    pub explicitinertial: bool,
    pub mocap: bool,
    pub gravcomp: f64,
    pub userdata: Vec<f64>,
    pub contype: i32,
    pub conaffinity: i32,
    pub margin: f64,
    pub tree: Bvh,
    pub dofnum: usize,
    pub xpos0: [f64; 3],
    pub xquat0: [f64; 4],
    /// Global ids of the body's objects and children, in order.
    pub bodies: Vec<usize>,
    pub joints: Vec<usize>,
    pub geoms: Vec<usize>,
    pub sites: Vec<usize>,
    pub cameras: Vec<usize>,
    pub lights: Vec<usize>,
    pub info: Info,
    /// The plugin instance giving the body passive forces.
    pub plugin: Option<usize>,
}

/// A compiled joint.
#[derive(Clone, Debug)]
pub(crate) struct CJoint {
    pub s: spec::Joint,
    pub body: usize,
}

/// A compiled geom.
#[derive(Clone, Debug)]
pub(crate) struct CGeom {
    pub s: spec::Geom,
    pub body: usize,
    pub matid: i32,
    pub mesh: Option<usize>,
    pub hfield: Option<usize>,
    pub visual: bool,
    pub inferinertia: bool,
    pub mass: f64,
    pub inertia: [f64; 3],
    pub aabb: [f64; 6],
    pub fluid: [f64; NFLUID],
    /// The plugin instance of an `sdf` geom.
    pub plugin: Option<usize>,
}

/// A compiled site.
#[derive(Clone, Debug)]
pub(crate) struct CSite {
    pub s: spec::Site,
    pub body: usize,
    pub matid: i32,
}

/// A compiled camera.
#[derive(Clone, Debug)]
pub(crate) struct CCamera {
    pub s: spec::Camera,
    pub body: usize,
    pub targetbodyid: i32,
}

/// A compiled light.
#[derive(Clone, Debug)]
pub(crate) struct CLight {
    pub s: spec::Light,
    pub body: usize,
    pub targetbodyid: i32,
}

/// A compiled frame: its pose in its body's frame.
#[derive(Clone, Debug)]
pub(crate) struct CFrame {
    pub pos: [f64; 3],
    pub quat: [f64; 4],
    pub compiled: bool,
}

/// The compiler's working state (`mjCModel` during `TryCompile`).
pub(crate) struct Compiler<'a> {
    pub spec: Spec,
    pub res: &'a dyn Resources,
    pub warnings: Vec<String>,
    pub bodies: Vec<CBody>,
    pub joints: Vec<CJoint>,
    pub geoms: Vec<CGeom>,
    pub sites: Vec<CSite>,
    pub cameras: Vec<CCamera>,
    pub lights: Vec<CLight>,
    pub frames: Vec<CFrame>,
    pub meshes: Vec<Option<CompiledMesh>>,
    pub flexes: Vec<flex::CFlex>,
    pub skins: Vec<CompiledSkin>,
    pub hfields: Vec<CompiledHField>,
    pub textures: Vec<CompiledTexture>,
    pub objects: objects::Objects,
    /// Name -> id per object type (MuJoCo's `ids`), for the tree's objects.
    pub ids: HashMap<(i32, String), usize>,
    pub nuser: Nuser,
    pub plugins: plugin::Plugins,
}

/// The `nuser_*` sizes after `SetNuser`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Nuser {
    pub body: usize,
    pub jnt: usize,
    pub geom: usize,
    pub site: usize,
    pub cam: usize,
    pub tendon: usize,
    pub actuator: usize,
    pub sensor: usize,
}

/// `nPOS` and `nVEL` of a joint type.
pub(crate) fn npos_nvel(jtype: i32) -> (usize, usize) {
    match jtype {
        JNT_FREE => (7, 6),
        JNT_BALL => (4, 3),
        _ => (1, 1),
    }
}

/// Compiles a spec into a model. `res` provides asset files (VFS first, then disk).
pub fn compile(spec: Spec, res: &dyn Resources) -> Result<Compilation, XmlError> {
    // plugins are asked about the model they are part of: the first-party ones must be there
    mjrs_alloc::register_first_party();
    let mut c = Compiler {
        spec,
        res,
        warnings: Vec::new(),
        bodies: Vec::new(),
        joints: Vec::new(),
        geoms: Vec::new(),
        sites: Vec::new(),
        cameras: Vec::new(),
        lights: Vec::new(),
        frames: Vec::new(),
        meshes: Vec::new(),
        flexes: Vec::new(),
        skins: Vec::new(),
        hfields: Vec::new(),
        textures: Vec::new(),
        objects: objects::Objects::default(),
        ids: HashMap::new(),
        nuser: Nuser::default(),
        plugins: plugin::Plugins::default(),
    };
    c.check_tree()?;
    c.add_missing_keys()?;
    c.make_lists();
    c.set_default_names();
    c.check_empty_names()?;
    c.process_lists()?;
    c.init_plugins();
    if c.spec.discardvisual {
        c.discard_visual_assets();
    }
    c.index_assets()?;
    c.set_nuser()?;
    c.compile_meshes()?;
    c.compile_bodies()?;
    c.compile_flexes()?;
    c.compile_assets()?;
    c.compile_objects()?;
    c.compile_plugins()?;
    c.sort_pairs_and_excludes();
    c.discard_visual_geoms();
    if c.spec.fusestatic {
        c.fuse_static()?;
    }
    c.set_mocap();
    c.check_masses()?;
    let model = c.build_model()?;
    Ok(Compilation {
        model,
        warnings: c.warnings,
    })
}

impl Compiler<'_> {
    fn check_tree(&mut self) -> Result<(), XmlError> {
        if !self.spec.bodies[0].joints.is_empty() {
            return Err(XmlError::model("joint found in world body"));
        }
        // MuJoCo 3.1.6 refuses 65534 or more bodies plus flexes here, but counts its body list
        // before `MakeLists` fills it, when it holds the world alone: it compiles any number
        // of bodies (70,000 and 100,000 sibling bodies compile), and only the flexes count
        if 1 + self.spec.flexes.len() >= 65534 {
            return Err(XmlError::model(
                "number of bodies plus flexes must be less than 65534",
            ));
        }
        for dir in [&mut self.spec.meshdir, &mut self.spec.texturedir] {
            if !dir.is_empty() && !dir.ends_with(['/', '\\']) {
                dir.push('/');
            }
        }
        Ok(())
    }

    fn add_missing_keys(&mut self) -> Result<(), XmlError> {
        let nkey = usize::try_from(self.spec.nkey).unwrap_or(0);
        let missing = nkey.saturating_sub(self.spec.keys.len());
        limits::reserve(&mut self.spec.keys, missing, "keyframes (<size nkey>)")
            .map_err(XmlError::model)?;
        while self.spec.keys.len() < nkey {
            self.spec.keys.push(spec::Key::default());
        }
        Ok(())
    }

    /// `MakeLists`: bodies and their objects in depth-first order, with global ids.
    fn make_lists(&mut self) {
        let mut order = Vec::new();
        let mut stack = vec![0usize];
        while let Some(b) = stack.pop() {
            order.push(b);
            stack.extend(self.spec.bodies[b].bodies.iter().rev());
        }
        let index: HashMap<usize, usize> = order.iter().enumerate().map(|(i, &s)| (s, i)).collect();
        for (id, &s) in order.iter().enumerate() {
            let sb = &self.spec.bodies[s];
            let mut b = CBody {
                spec: s,
                name: sb.name.clone(),
                parentid: sb.parent.map_or(0, |p| index[&p]),
                weldid: 0,
                mocapid: -1,
                pos: sb.pos,
                quat: sb.quat,
                ipos: sb.ipos,
                iquat: sb.iquat,
                mass: sb.mass,
                inertia: sb.inertia,
                fullinertia: sb.fullinertia,
                explicitinertial: sb.explicitinertial,
                mocap: sb.mocap,
                gravcomp: sb.gravcomp,
                userdata: sb.userdata.clone(),
                contype: 0,
                conaffinity: 0,
                margin: 0.0,
                tree: Bvh::default(),
                dofnum: 0,
                xpos0: [0.0; 3],
                xquat0: [1.0, 0.0, 0.0, 0.0],
                bodies: sb.bodies.iter().map(|c| index[c]).collect(),
                joints: Vec::new(),
                geoms: Vec::new(),
                sites: Vec::new(),
                cameras: Vec::new(),
                lights: Vec::new(),
                info: sb.info.clone(),
                plugin: None,
            };
            for j in &sb.joints {
                b.joints.push(self.joints.len());
                self.joints.push(CJoint {
                    s: j.clone(),
                    body: id,
                });
            }
            for g in &sb.geoms {
                b.geoms.push(self.geoms.len());
                self.geoms.push(CGeom {
                    s: g.clone(),
                    body: id,
                    matid: -1,
                    mesh: None,
                    hfield: None,
                    visual: false,
                    inferinertia: true,
                    mass: 0.0,
                    inertia: [0.0; 3],
                    aabb: [0.0; 6],
                    fluid: [0.0; NFLUID],
                    plugin: None,
                });
            }
            for x in &sb.sites {
                b.sites.push(self.sites.len());
                self.sites.push(CSite {
                    s: x.clone(),
                    body: id,
                    matid: -1,
                });
            }
            for x in &sb.cameras {
                b.cameras.push(self.cameras.len());
                self.cameras.push(CCamera {
                    s: x.clone(),
                    body: id,
                    targetbodyid: -1,
                });
            }
            for x in &sb.lights {
                b.lights.push(self.lights.len());
                self.lights.push(CLight {
                    s: x.clone(),
                    body: id,
                    targetbodyid: -1,
                });
            }
            self.bodies.push(b);
        }
        self.frames = self
            .spec
            .frames
            .iter()
            .map(|f| CFrame {
                pos: f.pos,
                quat: f.quat,
                compiled: false,
            })
            .collect();
    }

    /// `SetDefaultNames`: assets without a name take their file's name; duplicates get `_i`.
    fn set_default_names(&mut self) {
        fn fill<'a>(names: impl Iterator<Item = (&'a mut String, &'a str)>) {
            let mut given: Vec<(&'a mut String, String)> = Vec::new();
            for (name, file) in names {
                if name.is_empty() {
                    *name = stripext(strippath(file)).to_string();
                    let n = name.clone();
                    given.push((name, n));
                }
            }
            let mut count: HashMap<String, usize> = HashMap::new();
            for (_, n) in &given {
                *count.entry(n.clone()).or_default() += 1;
            }
            let mut seen: HashMap<String, usize> = HashMap::new();
            for (name, n) in given {
                if count[&n] > 1 {
                    let k = seen.entry(n.clone()).or_default();
                    *name = format!("{n}_{k}");
                    *k += 1;
                }
            }
        }
        let s = &mut self.spec;
        fill(s.meshes.iter_mut().map(|m| (&mut m.name, m.file.as_str())));
        fill(s.skins.iter_mut().map(|m| (&mut m.name, m.file.as_str())));
        fill(s.hfields.iter_mut().map(|m| (&mut m.name, m.file.as_str())));
        fill(
            s.textures
                .iter_mut()
                .map(|m| (&mut m.name, m.file.as_str())),
        );
    }

    /// `CheckEmptyNames`.
    fn check_empty_names(&self) -> Result<(), XmlError> {
        let s = &self.spec;
        if let Some((i, m)) = s.meshes.iter().enumerate().find(|(_, m)| m.name.is_empty()) {
            return Err(XmlError::compile("empty name in mesh", &m.name, i, &m.info));
        }
        if let Some((i, m)) = s
            .hfields
            .iter()
            .enumerate()
            .find(|(_, m)| m.name.is_empty())
        {
            return Err(XmlError::compile(
                "empty name in height field",
                &m.name,
                i,
                &m.info,
            ));
        }
        if let Some((i, m)) = s
            .textures
            .iter()
            .enumerate()
            .find(|(_, t)| t.name.is_empty() && t.ttype != TEXTURE_SKYBOX)
        {
            return Err(XmlError::compile(
                "empty name in texture",
                &m.name,
                i,
                &m.info,
            ));
        }
        if let Some((i, m)) = s
            .materials
            .iter()
            .enumerate()
            .find(|(_, m)| m.name.is_empty())
        {
            return Err(XmlError::compile(
                "empty name in material",
                &m.name,
                i,
                &m.info,
            ));
        }
        Ok(())
    }

    /// `ProcessLists`: name maps per object type and the check for repeated names.
    fn process_lists(&mut self) -> Result<(), XmlError> {
        let s = &self.spec;
        let lists: Vec<(i32, Vec<&str>)> = vec![
            (
                OBJ_BODY,
                self.bodies.iter().map(|b| b.name.as_str()).collect(),
            ),
            (
                OBJ_JOINT,
                self.joints.iter().map(|j| j.s.name.as_str()).collect(),
            ),
            (
                OBJ_GEOM,
                self.geoms.iter().map(|g| g.s.name.as_str()).collect(),
            ),
            (
                OBJ_SITE,
                self.sites.iter().map(|x| x.s.name.as_str()).collect(),
            ),
            (
                OBJ_CAMERA,
                self.cameras.iter().map(|x| x.s.name.as_str()).collect(),
            ),
            (
                OBJ_LIGHT,
                self.lights.iter().map(|x| x.s.name.as_str()).collect(),
            ),
            (OBJ_FLEX, s.flexes.iter().map(|x| x.name.as_str()).collect()),
            (OBJ_MESH, s.meshes.iter().map(|x| x.name.as_str()).collect()),
            (OBJ_SKIN, s.skins.iter().map(|x| x.name.as_str()).collect()),
            (
                OBJ_HFIELD,
                s.hfields.iter().map(|x| x.name.as_str()).collect(),
            ),
            (
                OBJ_TEXTURE,
                s.textures.iter().map(|x| x.name.as_str()).collect(),
            ),
            (
                OBJ_MATERIAL,
                s.materials.iter().map(|x| x.name.as_str()).collect(),
            ),
            (OBJ_PAIR, s.pairs.iter().map(|x| x.name.as_str()).collect()),
            (
                OBJ_EXCLUDE,
                s.excludes.iter().map(|x| x.name.as_str()).collect(),
            ),
            (
                OBJ_EQUALITY,
                s.equalities.iter().map(|x| x.name.as_str()).collect(),
            ),
            (
                OBJ_TENDON,
                s.tendons.iter().map(|x| x.name.as_str()).collect(),
            ),
            (
                OBJ_ACTUATOR,
                s.actuators.iter().map(|x| x.name.as_str()).collect(),
            ),
            (
                OBJ_SENSOR,
                s.sensors.iter().map(|x| x.name.as_str()).collect(),
            ),
            (
                OBJ_NUMERIC,
                s.numerics.iter().map(|x| x.name.as_str()).collect(),
            ),
            (OBJ_TEXT, s.texts.iter().map(|x| x.name.as_str()).collect()),
            (
                OBJ_TUPLE,
                s.tuples.iter().map(|x| x.name.as_str()).collect(),
            ),
            (OBJ_KEY, s.keys.iter().map(|x| x.name.as_str()).collect()),
            (
                OBJ_FRAME,
                s.frames.iter().map(|x| x.name.as_str()).collect(),
            ),
            (
                OBJ_PLUGIN,
                s.plugins.iter().map(|x| x.name.as_str()).collect(),
            ),
        ];
        let mut ids = HashMap::new();
        for (ty, names) in &lists {
            for (i, n) in names.iter().enumerate() {
                ids.insert((*ty, n.to_string()), i);
            }
            let mut all: Vec<&str> = names.iter().copied().filter(|n| !n.is_empty()).collect();
            all.sort_unstable();
            if let Some(w) = all.windows(2).find(|w| w[0] == w[1]) {
                return Err(XmlError::model(format!(
                    "repeated name '{}' in {}",
                    w[0],
                    type2str(*ty)
                )));
            }
        }
        self.ids = ids;
        Ok(())
    }

    /// Finds an object by type and name (`FindObject`).
    pub(crate) fn find(&self, ty: i32, name: &str) -> Option<usize> {
        self.ids.get(&(ty, name.to_string())).copied()
    }

    /// `discardvisual`: materials and textures are dropped before anything refers to them.
    fn discard_visual_assets(&mut self) {
        let s = &mut self.spec;
        s.materials.clear();
        s.textures.clear();
        for g in &mut self.geoms {
            g.s.material.clear();
        }
        for x in &mut self.sites {
            x.s.material.clear();
        }
        for x in &mut s.skins {
            x.material.clear();
        }
        for x in &mut s.tendons {
            x.material.clear();
        }
        self.ids
            .retain(|(ty, _), _| *ty != OBJ_MATERIAL && *ty != OBJ_TEXTURE);
    }

    /// `IndexAssets(false)`: material, mesh, height-field and texture references.
    fn index_assets(&mut self) -> Result<(), XmlError> {
        for i in 0..self.geoms.len() {
            let g = &self.geoms[i].s;
            let (mat, mesh, hf) = (g.material.clone(), g.meshname.clone(), g.hfieldname.clone());
            if !mat.is_empty() {
                let id = self.find(OBJ_MATERIAL, &mat).ok_or_else(|| {
                    XmlError::compile(
                        format!("material '{mat}' not found in geom {i}"),
                        &g.name,
                        i,
                        &g.info,
                    )
                })?;
                self.geoms[i].matid = id as i32;
            }
            let g = &self.geoms[i].s;
            if !mesh.is_empty() {
                let id = self.find(OBJ_MESH, &mesh).ok_or_else(|| {
                    XmlError::compile(
                        format!("mesh '{mesh}' not found in geom {i}"),
                        &g.name,
                        i,
                        &g.info,
                    )
                })?;
                self.geoms[i].mesh = Some(id);
            }
            let g = &self.geoms[i].s;
            if !hf.is_empty() {
                let id = self.find(OBJ_HFIELD, &hf).ok_or_else(|| {
                    XmlError::compile(
                        format!("hfield '{hf}' not found in geom {i}"),
                        &g.name,
                        i,
                        &g.info,
                    )
                })?;
                self.geoms[i].hfield = Some(id);
            }
        }
        let find_mat = |c: &Self, name: &str, what: &str, oname: &str, i: usize, info: &Info| {
            c.find(OBJ_MATERIAL, name).map(|m| m as i32).ok_or_else(|| {
                XmlError::compile(
                    format!("material '{name}' not found in {what} {i}"),
                    oname,
                    i,
                    info,
                )
            })
        };
        self.objects.skin_matid = vec![-1; self.spec.skins.len()];
        for i in 0..self.spec.skins.len() {
            let s = &self.spec.skins[i];
            if !s.material.is_empty() {
                self.objects.skin_matid[i] =
                    find_mat(self, &s.material, "skin", &s.name, i, &s.info)?;
            }
        }
        for i in 0..self.sites.len() {
            let s = &self.sites[i].s;
            if !s.material.is_empty() {
                self.sites[i].matid = find_mat(self, &s.material, "site", &s.name, i, &s.info)?;
            }
        }
        self.objects.tendon_matid = vec![-1; self.spec.tendons.len()];
        for i in 0..self.spec.tendons.len() {
            let s = &self.spec.tendons[i];
            if !s.material.is_empty() {
                self.objects.tendon_matid[i] =
                    find_mat(self, &s.material, "tendon", &s.name, i, &s.info)?;
            }
        }
        self.objects.mat_texid = vec![-1; self.spec.materials.len()];
        for i in 0..self.spec.materials.len() {
            let m = &self.spec.materials[i];
            if !m.texture.is_empty() {
                let id = self.find(OBJ_TEXTURE, &m.texture).ok_or_else(|| {
                    XmlError::compile(
                        format!("texture '{}' not found in material {i}", m.texture),
                        &m.name,
                        i,
                        &m.info,
                    )
                })?;
                self.objects.mat_texid[i] = id as i32;
            }
        }
        Ok(())
    }

    /// `SetNuser`: unset `nuser_*` become the longest user data given. Every object of a kind
    /// gets that many user values, so their product must fit in one buffer.
    fn set_nuser(&mut self) -> Result<(), XmlError> {
        fn pick(given: i32, lens: impl Iterator<Item = usize>) -> usize {
            if given >= 0 {
                given as usize
            } else {
                lens.max().unwrap_or(0)
            }
        }
        let s = &self.spec;
        self.nuser = Nuser {
            body: pick(s.nuser_body, self.bodies.iter().map(|b| b.userdata.len())),
            jnt: pick(s.nuser_jnt, self.joints.iter().map(|j| j.s.userdata.len())),
            geom: pick(s.nuser_geom, self.geoms.iter().map(|g| g.s.userdata.len())),
            site: pick(s.nuser_site, self.sites.iter().map(|x| x.s.userdata.len())),
            cam: pick(s.nuser_cam, self.cameras.iter().map(|x| x.s.userdata.len())),
            tendon: pick(s.nuser_tendon, s.tendons.iter().map(|x| x.userdata.len())),
            actuator: pick(
                s.nuser_actuator,
                s.actuators.iter().map(|x| x.userdata.len()),
            ),
            sensor: pick(s.nuser_sensor, s.sensors.iter().map(|x| x.userdata.len())),
        };
        self.check_nuser().map_err(XmlError::model)
    }

    /// Refuses `nuser_*` whose user data for all objects of the kind cannot be held.
    fn check_nuser(&self) -> Result<(), String> {
        let (u, s) = (&self.nuser, &self.spec);
        let kinds = [
            (
                "body user data (<size nuser_body>)",
                u.body,
                self.bodies.len(),
            ),
            (
                "joint user data (<size nuser_jnt>)",
                u.jnt,
                self.joints.len(),
            ),
            (
                "geom user data (<size nuser_geom>)",
                u.geom,
                self.geoms.len(),
            ),
            (
                "site user data (<size nuser_site>)",
                u.site,
                self.sites.len(),
            ),
            (
                "camera user data (<size nuser_cam>)",
                u.cam,
                self.cameras.len(),
            ),
            (
                "tendon user data (<size nuser_tendon>)",
                u.tendon,
                s.tendons.len(),
            ),
            (
                "actuator user data (<size nuser_actuator>)",
                u.actuator,
                s.actuators.len(),
            ),
            (
                "sensor user data (<size nuser_sensor>)",
                u.sensor,
                s.sensors.len(),
            ),
        ];
        for (what, nuser, nobj) in kinds {
            limits::check(limits::count(nuser, nobj, what)?, size_of::<f64>(), what)?;
        }
        Ok(())
    }

    /// The full name of an asset file as MuJoCo resolves it (`mjuu_makefullname`).
    fn asset_path(&self, dir: &str, file: &str) -> String {
        let file = if self.spec.strippath {
            strippath(file)
        } else {
            file
        };
        makefullname(&self.spec.modelfiledir, dir, file)
    }

    /// The bytes of an asset file: the VFS first, then a resource provider, then the disk
    /// (`LoadResource`). A file that opens but that its provider cannot read is returned
    /// marked [`AssetFile::read_failed`], for its decoder to report.
    pub(crate) fn load_file(&self, dir: &str, file: &str) -> Result<AssetFile, ResourceError> {
        let path = self.asset_path(dir, file);
        match self.res.read(&path) {
            Ok(r) => Ok(AssetFile {
                path,
                bytes: r.bytes,
                read_failed: false,
            }),
            Err(ResourceError::Read(_)) => Ok(AssetFile {
                path,
                bytes: Vec::new(),
                read_failed: true,
            }),
            Err(e) => Err(e),
        }
    }

    /// The bytes of an asset file if it opens; the asset decoders report a missing file
    /// themselves, at the point MuJoCo opens it.
    pub(crate) fn try_load(&self, dir: &str, file: &str) -> Option<AssetFile> {
        if file.is_empty() {
            return None;
        }
        self.load_file(dir, file).ok()
    }

    /// A decoder's "resource not found" error becomes the reason the file did not open, as
    /// MuJoCo words it (`LoadResource`): the full name with the model and asset directories
    /// (`mjuu_makefullname`), and the provider's prefix when one refused it.
    fn full_path_error(&self, err: XmlError, dir: &str, file: &str) -> XmlError {
        const NOT_FOUND: &str = "resource not found via provider or OS filesystem: '";
        match &err {
            XmlError::Compile {
                message,
                object: None,
            } if message.starts_with(NOT_FOUND) => match self.load_file(dir, file) {
                Err(e) => XmlError::model(e.to_string()),
                // opened on a second try (a provider that fails now and then)
                Ok(f) => XmlError::model(format!("{NOT_FOUND}{}'", f.path)),
            },
            _ => err,
        }
    }

    /// A height field with its file name stripped of its path when `strippath` is set.
    fn stripped(&self, h: &spec::HField) -> spec::HField {
        let mut h = h.clone();
        if self.spec.strippath {
            h.file = strippath(&h.file).to_string();
        }
        h
    }

    /// Meshes (`mjCMesh::Compile` for each): those used by colliding mesh geoms need a hull.
    fn compile_meshes(&mut self) -> Result<(), XmlError> {
        let mut needhull = vec![false; self.spec.meshes.len()];
        for g in &self.geoms {
            if let Some(m) = g.mesh {
                if (g.s.gtype == GEOM_MESH || g.s.gtype == GEOM_SDF)
                    && (g.s.contype != 0 || g.s.conaffinity != 0)
                {
                    needhull[m] = true;
                }
            }
        }
        for i in 0..self.spec.meshes.len() {
            let generated =
                if self.spec.meshes[i].plugin.is_some() && self.spec.meshes[i].file.is_empty() {
                    Some(self.sdf_mesh(i)?)
                } else {
                    None
                };
            let m = generated.as_ref().unwrap_or(&self.spec.meshes[i]);
            let file = self.try_load(&self.spec.meshdir, &m.file);
            let class = self.spec.defaults.iter().find(|d| d.name == m.classname);
            let opts = crate::mesh::MeshOptions {
                exactmeshinertia: self.spec.exactmeshinertia,
                convexhull: self.spec.convexhull,
                needhull: needhull[i],
                strippath: self.spec.strippath,
                density: class.map_or(1000.0, |d| d.geom.density),
            };
            let mesh = crate::mesh::compile(m, i, file.as_ref(), &opts)
                .map_err(|e| self.full_path_error(e, &self.spec.meshdir, &m.file))?;
            self.meshes.push(Some(mesh));
        }
        Ok(())
    }

    /// Skins, height fields, textures (`Compile` of each, in MuJoCo's order).
    fn compile_assets(&mut self) -> Result<(), XmlError> {
        for i in 0..self.spec.skins.len() {
            let s = &self.spec.skins[i];
            let file = self.try_load(&self.spec.meshdir, &s.file);
            let body_id = |name: &str| self.find(OBJ_BODY, name).map(|b| b as i32);
            let material_id = |name: &str| self.find(OBJ_MATERIAL, name).map(|b| b as i32);
            let skin = crate::mesh::compile_skin(
                s,
                i,
                file.as_ref(),
                self.spec.strippath,
                &body_id,
                &material_id,
            )
            .map_err(|e| self.full_path_error(e, &self.spec.meshdir, &s.file))?;
            self.skins.push(skin);
        }
        for i in 0..self.spec.hfields.len() {
            let h = self.stripped(&self.spec.hfields[i]);
            let file = self.try_load(&self.spec.meshdir, &h.file);
            let hf = crate::hfield::compile(&h, i, file.as_ref())
                .map_err(|e| self.full_path_error(e, &self.spec.meshdir, &h.file))?;
            self.hfields.push(hf);
        }
        // one C `rand()` sequence for all textures, seeded as MuJoCo seeds it per compile
        let mut rng = crate::texture::CRand::mujoco();
        for i in 0..self.spec.textures.len() {
            let mut t = self.spec.textures[i].clone();
            if self.spec.strippath {
                t.file = strippath(&t.file).to_string();
                for f in &mut t.cubefiles {
                    *f = strippath(f).to_string();
                }
            }
            let dir = &self.spec.texturedir;
            let mut file = None;
            let mut cube: [Option<AssetFile>; 6] = Default::default();
            if t.builtin == spec::builtin::NONE {
                if !t.file.is_empty() {
                    file = self.try_load(dir, &t.file);
                } else if t.ttype != TEXTURE_2D {
                    for (k, f) in t.cubefiles.iter().enumerate() {
                        cube[k] = self.try_load(dir, f);
                    }
                }
            }
            let tex =
                crate::texture::compile(&t, i, file.as_ref(), &cube, &mut rng).map_err(|e| {
                    let missing = t
                        .cubefiles
                        .iter()
                        .find(|f| !f.is_empty() && self.try_load(dir, f).is_none());
                    let name = if t.file.is_empty() {
                        missing.map_or("", String::as_str)
                    } else {
                        &t.file
                    };
                    self.full_path_error(e, dir, name)
                })?;
            self.textures.push(tex);
        }
        Ok(())
    }

    /// Pairs and excludes sorted by body signature (a stable sort, as MuJoCo's).
    fn sort_pairs_and_excludes(&mut self) {
        let o = &mut self.objects;
        let mut order: Vec<usize> = (0..o.pairs.len()).collect();
        order.sort_by_key(|&i| o.pairs[i].signature);
        o.pairs = order.iter().map(|&i| o.pairs[i].clone()).collect();
        let mut order: Vec<usize> = (0..o.excludes.len()).collect();
        order.sort_by_key(|&i| o.excludes[i].signature);
        o.excludes = order.iter().map(|&i| o.excludes[i].clone()).collect();
    }

    /// `IndexAssets(discardvisual)`: with `discardvisual`, visual geoms and the meshes only
    /// they use are removed.
    fn discard_visual_geoms(&mut self) {
        if !self.spec.discardvisual {
            return;
        }
        let mut mesh_visual = vec![true; self.meshes.len()];
        for g in &self.geoms {
            if let Some(m) = g.mesh {
                if !g.visual {
                    mesh_visual[m] = false;
                }
            }
        }
        // meshes: drop the visual ones, renumber references
        let mut newid = vec![-1i64; self.meshes.len()];
        let mut k = 0;
        for (i, v) in mesh_visual.iter().enumerate() {
            if !v {
                newid[i] = k;
                k += 1;
            }
        }
        let mut kept_meshes = Vec::new();
        let mut kept_specs = Vec::new();
        for (i, m) in self.meshes.drain(..).enumerate() {
            if !mesh_visual[i] {
                kept_meshes.push(m);
                kept_specs.push(self.spec.meshes[i].clone());
            }
        }
        self.meshes = kept_meshes;
        self.spec.meshes = kept_specs;
        for g in &mut self.geoms {
            g.mesh = g.mesh.and_then(|m| usize::try_from(newid[m]).ok());
        }
        // geoms: drop the visual ones
        let keep: Vec<bool> = self.geoms.iter().map(|g| !g.visual).collect();
        let mut gid = vec![usize::MAX; self.geoms.len()];
        let mut n = 0;
        for (i, &k) in keep.iter().enumerate() {
            if k {
                gid[i] = n;
                n += 1;
            }
        }
        let old = std::mem::take(&mut self.geoms);
        self.geoms = old
            .into_iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|(g, _)| g)
            .collect();
        for b in &mut self.bodies {
            b.geoms = b
                .geoms
                .iter()
                .filter(|&&g| keep[g])
                .map(|&g| gid[g])
                .collect();
        }
        self.objects.remap_geoms(&gid);
    }

    /// Mocap ids in body order.
    fn set_mocap(&mut self) {
        let mut n = 0;
        for b in &mut self.bodies {
            if b.mocap {
                b.mocapid = n;
                n += 1;
            } else {
                b.mocapid = -1;
            }
        }
    }

    /// Moving bodies need mass and inertia, themselves or in a static child.
    fn check_masses(&self) -> Result<(), XmlError> {
        const MINVAL: f64 = crate::util::MINVAL;
        let ok = |b: &CBody| b.mass >= MINVAL && b.inertia.iter().all(|&x| x >= MINVAL);
        for (i, b) in self.bodies.iter().enumerate().skip(1) {
            if !b.joints.is_empty() && !ok(b) {
                let child_ok = b
                    .bodies
                    .iter()
                    .any(|&c| self.bodies[c].joints.is_empty() && ok(&self.bodies[c]));
                if !child_ok {
                    return Err(XmlError::compile(
                        "mass and inertia of moving bodies must be larger than mjMINVAL",
                        &b.name,
                        i,
                        &b.info,
                    ));
                }
            }
        }
        Ok(())
    }
}

/// `mju_type2Str`.
pub(crate) fn type2str(ty: i32) -> &'static str {
    match ty {
        OBJ_BODY => "body",
        OBJ_XBODY => "xbody",
        OBJ_JOINT => "joint",
        OBJ_DOF => "dof",
        OBJ_GEOM => "geom",
        OBJ_SITE => "site",
        OBJ_CAMERA => "camera",
        OBJ_LIGHT => "light",
        OBJ_FLEX => "flex",
        OBJ_MESH => "mesh",
        OBJ_SKIN => "skin",
        OBJ_HFIELD => "hfield",
        OBJ_TEXTURE => "texture",
        OBJ_MATERIAL => "material",
        OBJ_PAIR => "pair",
        OBJ_EXCLUDE => "exclude",
        OBJ_EQUALITY => "equality",
        OBJ_TENDON => "tendon",
        OBJ_ACTUATOR => "actuator",
        OBJ_SENSOR => "sensor",
        OBJ_NUMERIC => "numeric",
        OBJ_TEXT => "text",
        OBJ_TUPLE => "tuple",
        OBJ_KEY => "key",
        OBJ_PLUGIN => "plugin",
        OBJ_FRAME => "frame",
        _ => "unknown",
    }
}
