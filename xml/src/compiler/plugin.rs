//! Plugin instances (`mjCModel::ResolvePlugin`, `mjCPlugin::Compile` and the plugin part of
//! `mjCModel::TryCompile`): the instance each body, geom, mesh, actuator and sensor uses, the
//! configuration of each instance in its plugin's attribute order, and what the plugins say
//! about the compiled model (state sizes, sensor dimensions, activation variables).

use mjrs_core::model::Model;
use mjrs_core::plugin::sdf::sdflib::plugin::SDFLIB;
use mjrs_core::plugin::{
    get_plugin_at_slot, Plugin, MAX_SDF_ATTRIBUTES, PLUGIN_ACTUATOR, PLUGIN_PASSIVE, PLUGIN_SDF,
    PLUGIN_SENSOR,
};
use mjrs_core::types::*;

use super::Compiler;
use crate::error::XmlError;
use crate::spec::{Info, Mesh, PluginRef};

/// The element a plugin reference belongs to, named in MuJoCo's messages.
#[derive(Clone, Debug)]
pub(crate) struct PluginUser {
    /// Which kind of element.
    pub kind: UserKind,
    /// Its name.
    pub name: String,
    /// Its id in its list.
    pub id: usize,
    /// Where it was declared.
    pub info: Info,
}

/// The kinds of elements that use plugin instances, each needing one capability.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum UserKind {
    /// A body: passive forces.
    Body,
    /// A geom of type `sdf`.
    Geom,
    /// A mesh made from a signed distance field.
    Mesh,
    /// An actuator.
    Actuator,
    /// A sensor.
    Sensor,
}

impl PluginUser {
    fn error(&self, message: String) -> XmlError {
        XmlError::compile(message, &self.name, self.id, &self.info)
    }

    /// MuJoCo's message for a `plugin` element with neither attribute.
    fn neither(&self) -> XmlError {
        let (name, id) = (&self.name, self.id);
        let what = match self.kind {
            UserKind::Body => format!("body '{name}', (id = {id})"),
            UserKind::Mesh => format!("mesh '{name}', (id = {id})"),
            UserKind::Actuator => format!("actuator '{name}', (id = {id})"),
            UserKind::Geom => "geom".into(),
            UserKind::Sensor => "sensor".into(),
        };
        self.error(format!(
            "neither 'plugin' nor 'instance' is specified for {what}"
        ))
    }

    /// The capability the element needs and MuJoCo's message when the plugin lacks it.
    fn capability(&self) -> (u32, &'static str) {
        match self.kind {
            UserKind::Body => (PLUGIN_PASSIVE, "does not support passive forces"),
            UserKind::Geom => (PLUGIN_SDF, "does not support sign distance fields"),
            UserKind::Mesh => (PLUGIN_SDF, "does not support signed distance fields"),
            UserKind::Actuator => (PLUGIN_ACTUATOR, "does not support actuators"),
            UserKind::Sensor => (PLUGIN_SENSOR, "does not support sensors"),
        }
    }
}

/// Whether the sum of `sizes` fits a model's `int` fields.
fn fits_int(mut sizes: impl Iterator<Item = usize>) -> bool {
    sizes
        .try_fold(0usize, |a, b| {
            a.checked_add(b).filter(|&t| i32::try_from(t).is_ok())
        })
        .is_some()
}

/// The compiler's plugin state, one entry per instance unless said otherwise.
#[derive(Debug, Default)]
pub(crate) struct Plugins {
    /// The element an implicit instance belongs to (MuJoCo's `parent`), for messages.
    pub parent: Vec<Option<PluginUser>>,
    /// Configuration values in the plugin's attribute order, each NUL-terminated.
    pub attr: Vec<Vec<u8>>,
    /// Length of the instance's state.
    pub nstate: Vec<usize>,
    /// Activation variables the plugin adds, per actuator.
    pub actdim: Vec<usize>,
}

impl Compiler<'_> {
    /// `ResolvePlugin` and the capability check of an element's `plugin`: the instance it
    /// uses. An implicit instance takes the slot of the plugin the element names.
    pub(super) fn resolve_plugin(
        &mut self,
        r: &PluginRef,
        user: PluginUser,
    ) -> Result<usize, XmlError> {
        if r.plugin.is_empty() && r.instance.is_empty() {
            return Err(user.neither());
        }
        let mut slot = None;
        if !r.plugin.is_empty() {
            let found = self
                .spec
                .active_plugins
                .iter()
                .find(|(n, _)| *n == r.plugin);
            let Some(&(_, s)) = found else {
                return Err(user.error(format!("unrecognized plugin '{}'", r.plugin)));
            };
            slot = Some(s);
        }
        let instance = match r.implicit {
            Some(i) => {
                if self.spec.plugins[i].slot.is_none() {
                    self.spec.plugins[i].slot = slot;
                    self.plugins.parent[i] = Some(user.clone());
                } else if self.plugins.parent[i].is_none() {
                    // a composite's instance has its plugin from the reader; its first body
                    // still names it in messages, as in MuJoCo
                    self.plugins.parent[i] = Some(user.clone());
                }
                i
            }
            None => {
                let Some(i) = self.find(OBJ_PLUGIN, &r.instance) else {
                    return Err(user.error(format!(
                        "unrecognized name '{}' for plugin instance",
                        r.instance
                    )));
                };
                if slot.is_some() && slot != self.spec.plugins[i].slot {
                    return Err(
                        user.error("'plugin' attribute does not match that of the instance".into())
                    );
                }
                i
            }
        };
        let plugin = self
            .instance_plugin(instance)
            .ok_or_else(|| user.error(format!("unrecognized plugin '{}'", r.plugin)))?;
        let (bit, message) = user.capability();
        if plugin.capabilities() & bit == 0 {
            return Err(user.error(format!("plugin '{}' {message}", plugin.name())));
        }
        Ok(instance)
    }

    /// The registered plugin of instance `i`, once its slot is known.
    fn instance_plugin(&self, i: usize) -> Option<&'static dyn Plugin> {
        self.spec.plugins[i].slot.and_then(get_plugin_at_slot)
    }

    /// The plugin state before elements are compiled: room for every instance.
    pub(super) fn init_plugins(&mut self) {
        let n = self.spec.plugins.len();
        self.plugins.parent = vec![None; n];
        self.plugins.nstate = vec![0; n];
    }

    /// `mjCPlugin::Compile` for every instance: the configuration values in the order of the
    /// plugin's attributes, unset ones empty; a key the plugin does not have is an error.
    pub(super) fn compile_plugins(&mut self) -> Result<(), XmlError> {
        let mut attr = Vec::with_capacity(self.spec.plugins.len());
        for i in 0..self.spec.plugins.len() {
            let p = &self.spec.plugins[i];
            let owner = || {
                self.plugins.parent[i].clone().unwrap_or(PluginUser {
                    kind: UserKind::Body,
                    name: p.name.clone(),
                    id: i,
                    info: p.info.clone(),
                })
            };
            let Some(plugin) = self.instance_plugin(i) else {
                // only a mesh read from a file leaves its implicit instance unresolved (it
                // ignores its plugin); MuJoCo 3.1.6 crashes on such a model
                return Err(owner().error(format!(
                    "implicit plugin instance {i} is not used: a mesh read from a file \
                     ignores its plugin"
                )));
            };
            let mut flat = Vec::new();
            for a in plugin.attributes() {
                if let Some(v) = p.config.get(*a) {
                    flat.extend_from_slice(&crate::reader::tinyxml::raw_bytes(v));
                }
                flat.push(0);
            }
            let unknown = p
                .config
                .keys()
                .find(|k| !plugin.attributes().contains(&k.as_str()));
            if let Some(k) = unknown {
                return Err(owner().error(format!(
                    "unrecognized attribute 'plugin:{k}' for plugin {}'",
                    plugin.name()
                )));
            }
            attr.push(flat);
        }
        self.plugins.attr = attr;
        Ok(())
    }

    /// What the plugins say about the compiled model `m` (the plugin part of `TryCompile`):
    /// each instance's state length, the dimension and stage of its sensors, the activation
    /// variables it adds to its actuators.
    pub(super) fn query_plugins(&mut self, m: &Model) -> Result<(), XmlError> {
        let nu = self.objects.actuators.len();
        self.plugins.actdim = vec![0; nu];
        for i in 0..self.spec.plugins.len() {
            let Some(plugin) = self.instance_plugin(i) else {
                continue;
            };
            // a user's plugin may answer anything: sizes must fit the model's int fields
            let size = |n: usize, what: &str| {
                i32::try_from(n).map_err(|_| {
                    XmlError::model(format!(
                        "plugin '{}' (instance {i}) gives {what} {n}, too large",
                        plugin.name()
                    ))
                })
            };
            self.plugins.nstate[i] = size(plugin.nstate(m, i), "a state length")? as usize;
            let caps = plugin.capabilities();
            if caps & PLUGIN_SENSOR != 0 {
                for (s, x) in self.objects.sensors.iter_mut().enumerate() {
                    if x.plugin == Some(i) {
                        x.s.dim = size(plugin.nsensordata(m, i, s), "a sensor dimension")?;
                        x.s.needstage = plugin.needstage();
                    }
                }
            }
            if caps & PLUGIN_ACTUATOR != 0 {
                for (u, a) in self.objects.actuators.iter().enumerate() {
                    if a.plugin == Some(i) {
                        let actdim = plugin.actuator_actdim(m, i, u);
                        self.plugins.actdim[u] = size(actdim, "an activation count")? as usize;
                    }
                }
            }
        }
        let actnum = (0..nu).map(|u| self.plugins.actdim[u] + 1);
        let dims = self.objects.sensors.iter().map(|x| x.s.dim.max(0) as usize);
        let fits =
            fits_int(self.plugins.nstate.iter().copied()) && fits_int(actnum) && fits_int(dims);
        if !fits {
            return Err(XmlError::model(
                "the plugins' state, activation or sensor sizes add up to too much",
            ));
        }
        Ok(())
    }

    /// MuJoCo's `init` of every instance (at `mj_makeData`): a plugin that refuses its
    /// instance fails the compilation with its reason.
    pub(super) fn init_plugin_instances(&self, m: &Model) -> Result<(), XmlError> {
        for i in 0..self.spec.plugins.len() {
            if let Some(plugin) = self.instance_plugin(i) {
                plugin.init(m, i).map_err(|e| {
                    XmlError::model(if e.fatal {
                        format!("engine error: {}", e.message)
                    } else {
                        format!(
                            "engine error: _initPlugin: plugin->init failed for plugin id {i}\n{}",
                            e.message
                        )
                    })
                })?;
            }
        }
        Ok(())
    }

    /// Fills the plugin arrays of `m` (slots, configuration, state layout, the instance of
    /// each body, geom, actuator and sensor).
    pub(super) fn copy_plugins(&self, m: &mut Model) {
        let mut adr = 0;
        let mut stateadr = 0;
        for (i, p) in self.spec.plugins.iter().enumerate() {
            m.plugin[i] = p.slot.map_or(-1, |s| s as i32);
            let flat = self.plugins.attr.get(i).map_or(&[][..], Vec::as_slice);
            m.plugin_attr[adr..adr + flat.len()].copy_from_slice(flat);
            m.plugin_attradr[i] = adr as i32;
            adr += flat.len();
            let nstate = self.plugins.nstate.get(i).copied().unwrap_or(0);
            m.plugin_stateadr[i] = stateadr as i32;
            m.plugin_statenum[i] = nstate as i32;
            stateadr += nstate;
        }
        let id = |p: Option<usize>| p.map_or(-1, |i| i as i32);
        for (b, x) in self.bodies.iter().enumerate() {
            m.body_plugin[b] = id(x.plugin);
        }
        for (g, x) in self.geoms.iter().enumerate() {
            m.geom_plugin[g] = id(x.plugin);
        }
        for (u, x) in self.objects.actuators.iter().enumerate() {
            m.actuator_plugin[u] = id(x.plugin);
        }
        for (s, x) in self.objects.sensors.iter().enumerate() {
            m.sensor_plugin[s] = id(x.plugin);
        }
    }

    /// Activation variables the plugin of actuator `u` adds (0 before the plugins are asked).
    pub(super) fn plugin_actdim(&self, u: usize) -> usize {
        self.plugins.actdim.get(u).copied().unwrap_or(0)
    }

    /// Total plugin state and configuration lengths, for the model's sizes.
    pub(super) fn plugin_sizes(&self) -> (usize, usize) {
        let nstate = self.plugins.nstate.iter().sum();
        let nattr = self.plugins.attr.iter().map(Vec::len).sum();
        (nstate, nattr)
    }
}

impl Compiler<'_> {
    /// `mjCMesh::LoadSDF`: mesh `i`, which has no file, from the instance its `plugin` names;
    /// the result is the mesh's spec with the surface as its own vertices, normals and faces.
    pub(super) fn sdf_mesh(&mut self, i: usize) -> Result<Mesh, XmlError> {
        let mesh = &self.spec.meshes[i];
        let user = PluginUser {
            kind: UserKind::Mesh,
            name: mesh.name.clone(),
            id: i,
            info: mesh.info.clone(),
        };
        let r = mesh.plugin.clone().unwrap_or_default();
        if r.plugin.is_empty() && r.instance.is_empty() {
            return Err(user.neither());
        }
        if mesh.scale != [1.0; 3] {
            return Err(user.error(format!(
                "attribute scale is not compatible with SDFs in mesh '{}', (id = {i})",
                mesh.name
            )));
        }
        let instance = self.resolve_plugin(&r, user.clone())?;
        let plugin = self
            .instance_plugin(instance)
            .ok_or_else(|| user.neither())?;
        if plugin.name() == SDFLIB.name() {
            // MuJoCo 3.1.6 calls the plugin's missing bounding-box function here and crashes
            return Err(user.error(format!(
                "the mesh SDF plugin 'mujoco.sdf.sdflib' needs a mesh file: mesh '{}' (id = {i}) \
                 has none",
                user.name
            )));
        }
        let names = plugin.attributes();
        let config = &self.spec.plugins[instance].config;
        let values: Vec<Option<&str>> = names
            .iter()
            .map(|n| config.get(*n).map(String::as_str))
            .collect();
        let mut attributes = vec![0.0; names.len().max(MAX_SDF_ATTRIBUTES)];
        plugin
            .sdf_attribute(&mut attributes[..names.len()], names, &values)
            .map_err(|e| XmlError::model(format!("engine error: {}", e.message)))?;
        let (vert, normal, face) = crate::mesh::sdf::sdf_surface(plugin, &attributes);
        let mut m = self.spec.meshes[i].clone();
        m.uservert = vert;
        m.usernormal = normal;
        m.userface = face;
        m.usertexcoord.clear();
        m.plugin = None;
        Ok(m)
    }
}
