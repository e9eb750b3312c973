//! Engine plugins, MuJoCo's `mjpPlugin`: the [`Plugin`] trait, the registry of static slots
//! ([`register_plugin`], [`get_plugin`], [`get_plugin_at_slot`]) and an instance's configuration
//! ([`plugin_config`], `mj_getPluginConfig`).
//!
//! A plugin is a `&'static dyn Plugin`: the registry stores references in fixed slots, so it
//! works without `std` or `alloc`, and registering at start-up on a microcontroller is one
//! call per plugin. An instance's mutable state lives in `Data::plugin_state` (its length is
//! [`Plugin::nstate`]). What MuJoCo's plugins keep in the object `init` allocates and
//! `plugin_data` points to (data precomputed from the model, values kept between calls outside
//! the state) lives in the instance's object: [`Plugin::object_bytes`] bytes of
//! `Data::plugin_objects()`, held above the arena when the `Data` is made and filled by
//! [`Plugin::init_object`]; `plugin_data[i]` holds its offset. Like MuJoCo's objects they are
//! not part of the model or the state: a reset and `mj_copyData` leave them alone.
//!
//! Slots. The model field `plugin` holds slot numbers, also in MJB files, so the slot of a plugin
//! must not depend on what else was registered. The first-party plugins therefore have fixed
//! slots ([`FIRST_PARTY`], in the order MuJoCo 3.1.6's Python package registers its bundled
//! libraries), whether or not they are registered; other plugins take the free slots after them.

pub mod cable;
pub mod elasticity;
mod number;
pub mod pid;
mod registry;
pub mod sdf;
pub mod touch_grid;

pub use number::{is_number_without_spaces, strtod, strtod_end};
pub use registry::{
    get_plugin, get_plugin_at_slot, plugin_count, register_plugin, RegisterError, FIRST_PARTY,
    MAX_PLUGINS,
};

use crate::arena::{ArenaError, Stack};
use crate::data::Data;
use crate::error::StepError;
use crate::model::Model;
use crate::real::Real;

/// `mjPLUGIN_ACTUATOR`: the plugin computes actuator forces.
pub const PLUGIN_ACTUATOR: u32 = 1 << 0;
/// `mjPLUGIN_SENSOR`: the plugin computes sensor values.
pub const PLUGIN_SENSOR: u32 = 1 << 1;
/// `mjPLUGIN_PASSIVE`: the plugin adds passive forces.
pub const PLUGIN_PASSIVE: u32 = 1 << 2;
/// `mjPLUGIN_SDF`: the plugin is a signed distance field.
pub const PLUGIN_SDF: u32 = 1 << 3;

/// Most configuration attributes an SDF plugin converts to numbers ([`Plugin::sdf_attribute`]).
pub const MAX_SDF_ATTRIBUTES: usize = 16;

/// Why a plugin instance cannot run with a model (MuJoCo reports these from `init`, at
/// `mj_makeData`; mjrs reports them when the model is compiled or loaded).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct PluginError {
    /// The reason.
    pub message: &'static str,
    /// Raised as a fatal error inside the plugin (MuJoCo's `mju_error`: the message is all
    /// MuJoCo prints), rather than `init` returning failure (MuJoCo then prints "plugin->init
    /// failed for plugin id N", the plugin having given its reason as a warning).
    pub fatal: bool,
}

impl PluginError {
    /// `init` failed after warning `message`.
    pub const fn failed(message: &'static str) -> Self {
        Self {
            message,
            fatal: false,
        }
    }

    /// A fatal error `message` raised by the plugin.
    pub const fn fatal(message: &'static str) -> Self {
        Self {
            message,
            fatal: true,
        }
    }
}

impl core::fmt::Display for PluginError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.message)
    }
}

impl core::error::Error for PluginError {}

/// A shape a plugin draws into a scene ([`Plugin::visualize`]): the `mjvGeom` fields plugins
/// set after `mjv_initGeom`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PluginGeom {
    /// Geom type (`GEOM_*`).
    pub type_: i32,
    /// Size, as `mjv_initGeom` takes it for that type.
    pub size: [Real; 3],
    /// Position in world coordinates.
    pub pos: [Real; 3],
    /// Orientation, a row-major rotation matrix.
    pub mat: [Real; 9],
    /// Colour.
    pub rgba: [f32; 4],
    /// Object type (`OBJ_*`) and id the geom stands for.
    pub objtype: i32,
    /// Object id.
    pub objid: i32,
    /// Category (`CAT_*` of the scene: 1 static, 2 dynamic, 4 decor).
    pub category: i32,
}

/// What a plugin may do to a scene while it is built (`mjv_updateScene` calls the plugins
/// first): add geoms, and recolour model geoms (MuJoCo's plugins write `geom_rgba` of the
/// model; mjrs keeps the model read-only and lets the scene apply the colour).
pub trait PluginScene {
    /// Adds a geom; false (with MuJoCo's `VGEOMFULL` warning counted) when the scene is full.
    fn add_geom(&mut self, d: &mut Data, g: &PluginGeom) -> bool;
    /// Draws model geom `geom` in `rgba` from now on.
    fn set_geom_rgba(&mut self, geom: usize, rgba: [f32; 4]);
}

/// MuJoCo's `mjpPlugin`: a plugin's identity and callbacks. Every method has the default of a
/// null function pointer in MuJoCo (nothing happens, or no state), except [`Plugin::name`].
///
/// Methods take the instance number `instance` (an index into the model's `plugin` arrays).
pub trait Plugin: Sync {
    /// Globally unique name, such as `mujoco.pid`.
    fn name(&self) -> &'static str;

    /// Names of the configuration attributes, in the order of the model's `plugin_attr`.
    fn attributes(&self) -> &'static [&'static str] {
        &[]
    }

    /// Capabilities, a bit set of `PLUGIN_*`.
    fn capabilities(&self) -> u32 {
        0
    }

    /// Stage (`STAGE_POS`, `STAGE_VEL`, `STAGE_ACC`) in which sensor plugins compute.
    fn needstage(&self) -> i32 {
        crate::types::STAGE_ACC
    }

    /// Length of the instance's state in `plugin_state`.
    fn nstate(&self, _m: &Model, _instance: usize) -> usize {
        0
    }

    /// Length of the output of sensor `sensor_id`, a sensor of this instance.
    fn nsensordata(&self, _m: &Model, _instance: usize, _sensor_id: usize) -> usize {
        0
    }

    /// Checks that the instance can run with `m` (MuJoCo's `init`): configuration values,
    /// the elements that use it.
    fn init(&self, _m: &Model, _instance: usize) -> Result<(), PluginError> {
        Ok(())
    }

    /// Bytes of the instance's object (what MuJoCo's `init` allocates for `plugin_data`); 0:
    /// none. Aligned to 8 bytes; counted against the arena.
    fn object_bytes(&self, _m: &Model, _instance: usize) -> usize {
        0
    }

    /// Builds the instance's object in `object` ([`Plugin::object_bytes`] bytes, zeroed, aligned
    /// to 8) when a `Data` is made (`mj_makeData`; the model passed [`Plugin::init`]), with
    /// scratch memory from the data's arena.
    fn init_object(
        &self,
        _m: &Model,
        _instance: usize,
        _object: &mut [u8],
        _stack: &mut Stack,
    ) -> Result<(), ArenaError> {
        Ok(())
    }

    /// Sets the instance's state to its initial value (`mj_resetData`).
    fn reset(&self, _m: &Model, _plugin_state: &mut [Real], _instance: usize) {}

    /// Computes the outputs of one capability (`PLUGIN_*`): actuator forces into
    /// `actuator_force`, sensor values into `sensordata`, passive forces into `qfrc_passive`.
    /// An error (such as scratch memory the Data's arena cannot give) stops the step, as
    /// MuJoCo's `mju_error` from a plugin would.
    fn compute(
        &self,
        _m: &Model,
        _d: &mut Data,
        _instance: usize,
        _capability: u32,
    ) -> Result<(), StepError> {
        Ok(())
    }

    /// Advances the state after the time step (`mj_advance`).
    fn advance(&self, _m: &Model, _d: &mut Data, _instance: usize) {}

    /// Draws into a scene (`mjv_updateScene`, before the model's own geoms).
    fn visualize(&self, _m: &Model, _d: &mut Data, _instance: usize, _scn: &mut dyn PluginScene) {}

    /// Activation variables the plugin adds to actuator `actuator_id` (after those of its
    /// `dyntype`).
    fn actuator_actdim(&self, _m: &Model, _instance: usize, _actuator_id: usize) -> usize {
        0
    }

    /// Writes the plugin's entries of `act_dot`, after the built-in dynamics and before
    /// [`Plugin::compute`].
    fn actuator_act_dot(&self, _m: &Model, _d: &mut Data, _instance: usize) {}

    /// Signed distance from `point` (local coordinates) to the surface, given the instance's
    /// numeric attributes from [`Plugin::sdf_attribute`].
    fn sdf_distance(&self, _point: &[Real; 3], _attributes: &[Real]) -> Real {
        0.0
    }

    /// Gradient of the distance with respect to the local coordinates of `point`.
    fn sdf_gradient(&self, _point: &[Real; 3], _attributes: &[Real]) -> [Real; 3] {
        [0.0; 3]
    }

    /// Distance used by the compiler to mesh the surface (marching cubes).
    fn sdf_staticdistance(&self, point: &[Real; 3], attributes: &[Real]) -> Real {
        self.sdf_distance(point, attributes)
    }

    /// Converts configuration values (`values[i]` of attribute `names[i]`, `None` when unset)
    /// to numbers, defaults filled in; writes at most [`MAX_SDF_ATTRIBUTES`]. A value that is
    /// not a number is an error (MuJoCo's `mju_error` from the plugin, a compile error).
    fn sdf_attribute(
        &self,
        _attribute: &mut [Real],
        _names: &[&str],
        _values: &[Option<&str>],
    ) -> Result<(), PluginError> {
        Ok(())
    }

    /// Bounding box of the surface: centre (3) and half sizes (3).
    fn sdf_aabb(&self, _attributes: &[Real]) -> [Real; 6] {
        [0.0; 6]
    }
}

/// The plugin of instance `instance` of `m`, if its slot is registered.
pub fn instance_plugin(m: &Model, instance: usize) -> Option<&'static dyn Plugin> {
    let slot = usize::try_from(*m.plugin.get(instance)?).ok()?;
    get_plugin_at_slot(slot)
}

/// `mj_getPluginConfig`: the value of attribute `attrib` of instance `instance`, empty when
/// the model does not set it; `None` when the plugin has no such attribute (or the instance or
/// its slot does not exist).
pub fn plugin_config<'m>(m: &'m Model, instance: usize, attrib: &str) -> Option<&'m str> {
    let plugin = instance_plugin(m, instance)?;
    let index = plugin.attributes().iter().position(|a| *a == attrib)?;
    let start = usize::try_from(*m.plugin_attradr.get(instance)?).ok()?;
    let mut values = m.plugin_attr.get(start..)?.split(|&b| b == 0);
    let value = values.nth(index)?;
    core::str::from_utf8(value).ok()
}

/// A numeric configuration value as MuJoCo's plugins read it: `None` when the attribute is
/// unset or empty (or not the plugin's), else [`strtod`] of the text, so malformed text reads
/// as its longest numeric prefix, or 0.
pub fn config_number(m: &Model, instance: usize, attrib: &str) -> Option<f64> {
    plugin_config(m, instance, attrib)
        .filter(|v| !v.is_empty())
        .map(strtod)
}

/// The state of instance `instance` in `plugin_state` (empty when the addresses are off).
pub fn instance_state<'d>(
    m: &Model,
    plugin_state: &'d mut [Real],
    instance: usize,
) -> &'d mut [Real] {
    let adr = m
        .plugin_stateadr
        .get(instance)
        .and_then(|&a| usize::try_from(a).ok());
    let num = m
        .plugin_statenum
        .get(instance)
        .and_then(|&n| usize::try_from(n).ok());
    match (adr, num) {
        (Some(a), Some(n)) => plugin_state
            .get_mut(a..a.saturating_add(n))
            .unwrap_or(&mut []),
        _ => &mut [],
    }
}

/// The bodies naming instance `instance` (`body_plugin`, the world excluded): the first one and
/// how many there are (MuJoCo's `i0` and `nv` of the cable and elasticity plugins; the first is
/// 0 when there are none). They need not be consecutive.
pub(crate) fn instance_bodies(m: &Model, instance: usize) -> (usize, usize) {
    let mut first = 0;
    let mut count = 0;
    for i in 1..m.nbody {
        if usize::try_from(m.body_plugin[i]).ok() == Some(instance) {
            if count == 0 {
                first = i;
            }
            count += 1;
        }
    }
    (first, count)
}

/// Calls `f(actuator)` for every actuator of `m` that names instance `instance`, in order.
pub fn for_each_actuator(m: &Model, instance: usize, mut f: impl FnMut(usize)) {
    for (i, &p) in m.actuator_plugin.iter().enumerate() {
        if usize::try_from(p).ok() == Some(instance) {
            f(i);
        }
    }
}

/// Calls `f(instance, plugin)` for every instance of `m` whose plugin has `capability`, in
/// instance order, as MuJoCo's stages loop over `m->plugin`. An instance whose slot holds no
/// plugin stops the loop with MuJoCo's fatal "invalid plugin slot" (a validated model has none),
/// and so does the first error of `f`.
pub fn for_each_instance(
    m: &Model,
    capability: u32,
    mut f: impl FnMut(usize, &'static dyn Plugin) -> Result<(), StepError>,
) -> Result<(), StepError> {
    for instance in 0..m.nplugin {
        let p = instance_plugin(m, instance).ok_or(StepError::Rejected("invalid plugin slot"))?;
        if p.capabilities() & capability != 0 {
            f(instance, p)?;
        }
    }
    Ok(())
}

/// `advance` of every instance, after the integrator moved time (end of `mj_advance`).
pub fn advance_all(m: &Model, d: &mut Data) -> Result<(), StepError> {
    for_each_instance(m, u32::MAX, |i, p| {
        p.advance(m, d, i);
        Ok(())
    })
}

/// `reset` of every instance on its slice of `plugin_state` (`mj_resetData`); instances whose
/// slot is empty are left alone (the model was validated, so there are none).
pub fn reset_all(m: &Model, plugin_state: &mut [Real]) {
    for instance in 0..m.nplugin {
        if let Some(p) = instance_plugin(m, instance) {
            p.reset(m, instance_state(m, plugin_state, instance), instance);
        }
    }
}

/// Bytes of the plugin objects of every instance of `m` (each a multiple of 8), for
/// `Data::new`.
pub(crate) fn objects_bytes(m: &Model) -> Result<usize, ArenaError> {
    let mut total: usize = 0;
    for instance in 0..m.nplugin {
        let bytes = instance_plugin(m, instance).map_or(0, |p| p.object_bytes(m, instance));
        total = bytes
            .checked_add(7)
            .map(|b| b & !7)
            .and_then(|b| total.checked_add(b))
            .ok_or(ArenaError::SizeOverflow)?;
    }
    Ok(total)
}

/// Makes the object of every instance in `d.plugin_objects()` (sized by [`objects_bytes`]) and
/// records its offset in `plugin_data` (`_initPlugin` of `mj_makeData`).
pub(crate) fn make_objects(m: &Model, d: &mut Data) -> Result<(), ArenaError> {
    d.plugin_objects().fill(0);
    let mut offset: usize = 0;
    for instance in 0..m.nplugin.min(d.plugin_data.len()) {
        d.plugin_data[instance] = offset as u64;
        let Some(p) = instance_plugin(m, instance) else {
            continue;
        };
        let bytes = p.object_bytes(m, instance);
        let end = offset.saturating_add(bytes);
        d.with_objects_and_stack(|_, objects, stack| match objects.get_mut(offset..end) {
            Some(object) => p.init_object(m, instance, object, stack),
            None => Ok(()),
        })?;
        offset = end.saturating_add(7) & !7;
    }
    Ok(())
}

/// The object of instance `instance` in `objects` (`Data::plugin_objects()`), from its offset in
/// `plugin_data` to the next instance's (or the end): empty when out of range.
pub fn instance_object<'d>(
    plugin_data: &[u64],
    objects: &'d mut [u8],
    instance: usize,
) -> &'d mut [u8] {
    let at = |i: usize| {
        plugin_data
            .get(i)
            .map_or(Some(objects.len()), |&o| usize::try_from(o).ok())
    };
    match (at(instance), at(instance + 1)) {
        (Some(start), Some(end)) if instance < plugin_data.len() && start <= end => {
            objects.get_mut(start..end).unwrap_or(&mut [])
        }
        _ => &mut [],
    }
}

/// The numeric attributes of SDF instance `instance` ([`Plugin::sdf_attribute`] of its
/// configuration), padded with zeros to [`MAX_SDF_ATTRIBUTES`].
pub fn sdf_attributes(
    m: &Model,
    instance: usize,
) -> Result<[Real; MAX_SDF_ATTRIBUTES], PluginError> {
    let plugin = instance_plugin(m, instance).ok_or(PluginError::fatal("invalid plugin slot"))?;
    let names = plugin.attributes();
    let n = names.len().min(MAX_SDF_ATTRIBUTES);
    let mut values = [None; MAX_SDF_ATTRIBUTES];
    for (v, name) in values.iter_mut().zip(&names[..n]) {
        *v = plugin_config(m, instance, name);
    }
    let mut out = [0.0; MAX_SDF_ATTRIBUTES];
    plugin.sdf_attribute(&mut out[..n], &names[..n], &values[..n])?;
    Ok(out)
}

/// Registers every first-party plugin of this build at its fixed slot: what the desktop fronts
/// (`mjrs-alloc`'s MJB loader, the MJCF compiler) call before a model is read. A microcontroller
/// calls the `register` functions of the plugins it needs instead, so the others are not linked.
/// Calling it again is harmless; a plugin of the user's registered under a first-party name
/// before it keeps the slot.
pub fn register_first_party() {
    pid::register();
    sdf::register();
    cable::register();
    elasticity::membrane::register();
    elasticity::shell::register();
    elasticity::solid::register();
    touch_grid::register();
}
