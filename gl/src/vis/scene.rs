//! `mjv_updateScene`, the driver of `vis`: every kind of object in MuJoCo's order, each from
//! its own module, then the cameras and the lights. Floats are converted exactly where MuJoCo
//! converts them (its `mjvGeom` and `mjvLight` hold `float`s), so the scene equals MuJoCo's
//! bit for bit.

use super::camera::update_camera;
use super::error::{check_match, SceneError};
use super::geom::init_geom;
use super::VisGeom;
use super::{actuator, contact, decor, flex, labels, lights, model_geoms, objects, skin, tendon};
use super::{flag, Camera, Perturb, Scene, VisOption, CAT_DECOR, CAT_DYNAMIC, CAT_STATIC};
use mjrs_core::plugin::{self, PluginGeom, PluginScene};
use mjrs_core::types::WARN_VGEOMFULL;
use mjrs_core::{Data, Model};

/// Rebuilds `scn` from the model and data (`mjv_updateScene`): the geoms of the categories in
/// `catmask`, then the cameras, then the lights (the headlight first). Geoms beyond
/// `scn.maxgeom` are dropped with the `VGEOMFULL` warning counted in `d`, as MuJoCo does.
pub fn update_scene(
    m: &Model,
    d: &mut Data,
    opt: &VisOption,
    pert: &Perturb,
    cam: &mut Camera,
    catmask: i32,
    scn: &mut Scene,
) -> Result<(), SceneError> {
    check_match(m, d)?;
    begin(m, scn);
    plugin_visuals(m, d, scn);
    complete(m, d, opt, pert, cam, catmask, scn)
}

/// Empties the scene's geoms for a new frame, sizing its flex arrays for the model first.
pub(super) fn begin(m: &Model, scn: &mut Scene) {
    if !flex::arrays_match(m, scn) {
        flex::make_flex_arrays(m, scn);
    }
    scn.geoms.clear();
}

/// Everything of a scene after the plugins' geoms: the model's categories, the camera, the
/// lights, the flexes and the skins.
pub(super) fn complete(
    m: &Model,
    d: &mut Data,
    opt: &VisOption,
    pert: &Perturb,
    cam: &mut Camera,
    catmask: i32,
    scn: &mut Scene,
) -> Result<(), SceneError> {
    add_geoms(m, d, opt, pert, catmask, scn);
    update_camera(m, d, cam, scn)?;
    lights::make_lights(m, d, scn);
    if flex::any_shown(opt) {
        flex::update_flexes(m, d, opt, scn);
    }
    if opt.flags[flag::SKIN] != 0 {
        skin::update_active_skin(m, d, opt, scn);
    }
    Ok(())
}

/// What the plugins draw, before everything else, as MuJoCo calls them first.
pub(super) fn plugin_visuals(m: &Model, d: &mut Data, scn: &mut Scene) {
    let mut sink = PluginSink { m, scn };
    for instance in 0..m.nplugin {
        if let Some(p) = plugin::instance_plugin(m, instance) {
            p.visualize(m, d, instance, &mut sink);
        }
    }
}

/// The scene as plugins see it.
struct PluginSink<'s> {
    m: &'s Model<'s>,
    scn: &'s mut Scene,
}

impl PluginScene for PluginSink<'_> {
    fn add_geom(&mut self, d: &mut Data, p: &PluginGeom) -> bool {
        if self.scn.geoms.len() >= self.scn.maxgeom {
            mjrs_core::support::warning(d, WARN_VGEOMFULL, self.scn.maxgeom as i32);
            return false;
        }
        let g = VisGeom {
            objtype: p.objtype,
            objid: p.objid,
            category: p.category,
            segid: self.scn.geoms.len() as i32,
            ..init_geom(
                p.type_,
                Some(&p.size),
                Some(&p.pos),
                Some(&p.mat),
                Some(&p.rgba),
            )
        };
        self.scn.geoms.push(g);
        true
    }

    fn set_geom_rgba(&mut self, geom: usize, rgba: [f32; 4]) {
        if geom < self.m.ngeom {
            self.scn.plugin_rgba.resize(self.m.ngeom, None);
            self.scn.plugin_rgba[geom] = Some(rgba);
        }
    }
}

/// Appends the geoms of the categories in `catmask` that the options show (`mjv_addGeoms`):
/// flexes, skins, decorations, the model's geoms and sites, cameras, lights, tendons,
/// actuators, contacts and constraints, in MuJoCo's order. Stops at `scn.maxgeom`, counting
/// the `VGEOMFULL` warning in `d`.
pub fn add_geoms(
    m: &Model,
    d: &mut Data,
    opt: &VisOption,
    pert: &Perturb,
    catmask: i32,
    scn: &mut Scene,
) {
    let catmask = if opt.flags[flag::STATIC] == 0 {
        catmask & !CAT_STATIC
    } else {
        catmask
    };
    if !flex::add_flexes(m, d, opt, pert, catmask, scn)
        || !skin::add_skins(m, d, opt, pert, catmask, scn)
    {
        return;
    }
    decor::add_body_bvh(m, d, opt, scn);
    flex::add_flex_bvh(m, d, opt, scn);
    decor::add_mesh_bvh(m, d, opt, scn);
    if !decor::add_inertia(m, d, opt, pert, catmask, scn)
        || !objects::add_perturb(m, d, opt, pert, catmask, scn)
        || !decor::add_body_frames(m, d, opt, catmask, scn)
        || !objects::add_selection_point(m, d, opt, pert, catmask, scn)
        || !labels::add_body_labels(m, d, opt, pert, catmask, scn)
        || !decor::add_joints(m, d, opt, catmask, scn)
        || !actuator::add_actuators(m, d, opt, catmask, scn)
        || !labels::add_island_labels(m, d, opt, catmask, scn)
    {
        return;
    }
    if !model_geoms::add_model_geoms(m, d, opt, pert, catmask, scn)
        || !model_geoms::add_sites(m, d, opt, pert, catmask, scn)
    {
        return;
    }
    // each category stops the whole update when the scene is full, as MuJoCo's does
    if !objects::add_cameras(m, d, opt, catmask, scn)
        || !objects::add_lights(m, d, opt, catmask, scn)
    {
        return;
    }
    if opt.flags[flag::TENDON] != 0
        && catmask & CAT_DYNAMIC != 0
        && !tendon::add_tendons(m, d, opt, scn)
    {
        return;
    }
    if !objects::add_slider_cranks(m, d, opt, catmask, scn)
        || !decor::add_com(m, d, opt, catmask, scn)
        || !objects::add_autoconnect(m, d, opt, catmask, scn)
    {
        return;
    }
    if opt.flags[flag::RANGEFINDER] != 0
        && catmask & CAT_DECOR != 0
        && !decor::add_sensor_rays(m, d, scn)
    {
        return;
    }
    if !objects::add_applied_forces(m, d, opt, catmask, scn)
        || !objects::add_equalities(m, d, opt, catmask, scn)
    {
        return;
    }
    if catmask & CAT_DECOR != 0 {
        contact::add_contacts(m, d, opt, scn);
    }
}
