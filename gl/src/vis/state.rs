//! Scene state (MuJoCo's `mjvSceneState`): a copy of what the scene functions read from the
//! model and the data, so that one thread can step the physics while another builds scenes
//! and moves the camera from the last copy (MuJoCo's `simulate` works this way).
//!
//! MuJoCo copies a subset of the arrays into a buffer of its own; mjrs keeps a whole copy of
//! the model and the data, which holds that subset and more, and then applies what MuJoCo's
//! copy changes: at most `maxgeom` contacts (the `VGEOMFULL` warning counted in the physics
//! data when there are more), their constraint forces and islands packed in contact order
//! with `efc_address` renumbered, and the plugins' geoms drawn at copy time. A scene from the
//! state therefore equals the scene from the model and data in everything MuJoCo's does.

use super::error::{check_match, SceneError};
use super::scene::{begin, complete, plugin_visuals};
use super::{interact, Camera, Perturb, Scene, VisOption};
use mjrs_core::constraint::contact_rows_of;
use mjrs_core::types::WARN_VGEOMFULL;
use mjrs_core::{support, Data, Model, Real};
use mjrs_std::{OwnedData, OwnedModel};

/// A copy of a model and its data for building scenes (`mjvSceneState`).
pub struct SceneState {
    /// Most contacts (and plugin geoms) the state keeps.
    maxgeom: usize,
    model: OwnedModel,
    data: OwnedData,
    /// What the plugins drew at the last update (MuJoCo's `scratch` scene).
    plugin_geoms: Scene,
}

impl SceneState {
    /// A state for model `m` keeping at most `maxgeom` contacts and plugin geoms
    /// (`mjv_makeSceneState`): the model copied, the data at the model's defaults until the
    /// first [`SceneState::update`].
    pub fn new(m: &Model, maxgeom: usize) -> Result<Self, SceneError> {
        let mut model = OwnedModel::zeroed(*m.sizes()).map_err(|_| SceneError::NoMemory)?;
        model
            .view()
            .copy_from(m)
            .map_err(|_| SceneError::ModelMismatch)?;
        let data = OwnedData::new(m).map_err(|_| SceneError::NoMemory)?;
        Ok(SceneState {
            maxgeom,
            model,
            data,
            plugin_geoms: Scene::new(maxgeom),
        })
    }

    /// Copies the model and the data into the state (`mjv_updateSceneState`); `m` must have
    /// the sizes of the state's model. Counts `VGEOMFULL` in `d` when it holds more than
    /// `maxgeom` contacts, as MuJoCo does. (MuJoCo's function also takes the visualization
    /// options for the plugins' drawing; mjrs's plugins draw without them.)
    pub fn update(&mut self, m: &Model, d: &mut Data) -> Result<(), SceneError> {
        check_match(m, d)?;
        if m.sizes() != self.model.sizes() {
            return Err(SceneError::ModelMismatch);
        }
        self.plugin_geoms.geoms.clear();
        plugin_visuals(m, d, &mut self.plugin_geoms);
        let mut model = self.model.view();
        model.copy_from(m).map_err(|_| SceneError::ModelMismatch)?;
        let mut data = self.data.view();
        data.copy_from(d).map_err(|_| SceneError::ModelMismatch)?;
        if d.ncon > self.maxgeom {
            support::warning(d, WARN_VGEOMFULL, self.maxgeom as i32);
            data.ncon = self.maxgeom;
        }
        pack_contact_rows(&model, d, &mut data);
        Ok(())
    }

    /// The state's copy of the model.
    pub fn model(&mut self) -> mjrs_std::ModelGuard<'_> {
        self.model.view()
    }

    /// The state's copy of the data.
    pub fn data(&mut self) -> mjrs_std::DataGuard<'_> {
        self.data.view()
    }

    /// The state's copies of the model and the data together.
    pub fn views(&mut self) -> (mjrs_std::ModelGuard<'_>, mjrs_std::DataGuard<'_>) {
        (self.model.view(), self.data.view())
    }
}

/// The rows of the kept contacts, packed in contact order as MuJoCo's copy stores them: their
/// forces and islands, `efc_address` renumbered; the islands of tendon limits stay at the
/// rows `tendon_efcadr` names (MuJoCo writes them there too).
fn pack_contact_rows(m: &Model, d: &Data, state: &mut Data) {
    let src = d.arena.arrays();
    let ncon = state.ncon;
    let with_islands = d.nisland != 0;
    let dst = state.arena.arrays_mut();
    let mut address = 0usize;
    for c in 0..ncon {
        let con = &mut dst.contact[c];
        let rows = contact_rows_of(m, usize::try_from(con.dim).unwrap_or(0));
        let from = usize::try_from(con.efc_address).ok();
        con.efc_address = address as i32;
        if let Some(from) = from {
            for j in 0..rows {
                dst.efc_force[address + j] = src.efc_force[from + j];
                if with_islands {
                    dst.efc_island[address + j] = src.efc_island[from + j];
                }
            }
        }
        address += rows;
    }
    if with_islands {
        for &row in src.tendon_efcadr.iter() {
            if let Ok(row) = usize::try_from(row) {
                dst.efc_island[row] = src.efc_island[row];
            }
        }
    }
}

/// Builds `scn` from the state (`mjv_updateSceneFromState`) as [`update_scene`] builds it from
/// a model and data; returns how many `VGEOMFULL` warnings the scene raised. The state's own
/// warning counters are left as they were.
///
/// [`update_scene`]: super::update_scene
pub fn update_scene_from_state(
    state: &mut SceneState,
    opt: &VisOption,
    pert: &Perturb,
    cam: &mut Camera,
    catmask: i32,
    scn: &mut Scene,
) -> Result<i32, SceneError> {
    let model = state.model.view();
    let mut data = state.data.view();
    let saved = data.warning;
    let start = data.warning[WARN_VGEOMFULL as usize].number;
    begin(&model, scn);
    let plugin = &state.plugin_geoms.geoms;
    if plugin.len() > scn.maxgeom {
        support::warning(&mut data, WARN_VGEOMFULL, scn.maxgeom as i32);
    }
    scn.geoms
        .extend_from_slice(&plugin[..plugin.len().min(scn.maxgeom)]);
    recolor(&state.plugin_geoms, scn);
    let done = complete(&model, &mut data, opt, pert, cam, catmask, scn);
    let raised = data.warning[WARN_VGEOMFULL as usize].number - start;
    data.warning = saved;
    done.map(|()| raised)
}

/// The geom colours the plugins set at the state's updates (MuJoCo's plugins write them into
/// the model, whose copy the state then holds).
fn recolor(plugin: &Scene, scn: &mut Scene) {
    if plugin.plugin_rgba.len() > scn.plugin_rgba.len() {
        scn.plugin_rgba.resize(plugin.plugin_rgba.len(), None);
    }
    for (dst, src) in scn.plugin_rgba.iter_mut().zip(&plugin.plugin_rgba) {
        if src.is_some() {
            *dst = *src;
        }
    }
}

/// Moves the camera with the mouse given a state (`mjv_moveCameraFromState`); see
/// [`interact::move_camera`].
pub fn move_camera_from_state(
    state: &mut SceneState,
    action: i32,
    reldx: Real,
    reldy: Real,
    scn: &Scene,
    cam: &mut Camera,
) -> Result<(), SceneError> {
    interact::move_camera(&state.model.view(), action, reldx, reldy, scn, cam)
}

/// Moves the perturbed body's reference with the mouse given a state
/// (`mjv_movePerturbFromState`); see [`interact::move_perturb`].
pub fn move_perturb_from_state(
    state: &mut SceneState,
    action: i32,
    reldx: Real,
    reldy: Real,
    scn: &Scene,
    pert: &mut Perturb,
) -> Result<(), SceneError> {
    let model = state.model.view();
    let data = state.data.view();
    interact::move_perturb(&model, &data, action, reldx, reldy, scn, pert)
}
