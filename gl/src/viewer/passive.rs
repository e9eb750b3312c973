//! The passive viewer (MuJoCo's `viewer.launch_passive`): the program steps its own model and
//! data, and the viewer shows them as of the program's last [`Exchange::sync`]. The viewer
//! works on copies of its own (its panels and the mouse change those), and the two meet in a
//! [`Mailbox`]: a sync first applies what the viewer changed since the copies were last taken
//! (integration-state values, the physics options), then leaves copies of the program's model
//! and data for the viewer's next frame, as MuJoCo's `Simulate::Sync` does in passive mode.
//! The camera and the visualization options go both ways: the program's when it changed them
//! since the last sync, else the viewer's.

use crate::vis::{Camera, Perturb, VisGeom, VisOption};
use mjrs_core::types::STATE_INTEGRATION;
use mjrs_core::{Data, Model, Options as PhysicsOptions, Real};
use mjrs_std::{OwnedData, OwnedModel};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// What the program's thread and the viewer's share.
pub struct Exchange {
    /// The program's model and data at the last sync.
    model: OwnedModel,
    data: OwnedData,
    /// A sync left copies the viewer has not taken yet.
    fresh: bool,
    /// Integration-state values the viewer changed (index in the `STATE_INTEGRATION` vector,
    /// value), for the next sync.
    changes: Vec<(usize, Real)>,
    /// The physics options, when the viewer's panels changed them.
    opt: Option<PhysicsOptions>,
    /// The viewer's camera, visualization options and perturbation after its last frame.
    pub cam: Camera,
    /// See `cam`.
    pub vopt: VisOption,
    /// See `cam`.
    pub pert: Perturb,
    /// A camera and options the program set, for the viewer's next frame.
    pub user_cam: Option<Camera>,
    /// See `user_cam`.
    pub user_vopt: Option<VisOption>,
    /// Geoms the program adds to the scene (`user_scn`).
    pub user_geoms: Vec<VisGeom>,
    /// The window is open.
    pub opened: bool,
    /// Frames the viewer synchronized for (each then drawn).
    pub frames: u64,
    /// The viewer ended (the window closed, or it failed: `error`).
    pub closed: bool,
    /// Why the viewer failed.
    pub error: Option<String>,
    /// The program asked the viewer to close.
    pub close_request: bool,
}

/// The [`Exchange`] behind a lock, shared by the program and the viewer.
pub struct Mailbox(Mutex<Exchange>);

impl core::fmt::Debug for Mailbox {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Mailbox(..)")
    }
}

/// A model's owned copy.
pub fn copy_model(m: &Model) -> Result<OwnedModel, String> {
    let mut owned = OwnedModel::zeroed(*m.sizes()).map_err(|e| e.to_string())?;
    owned.view().copy_from(m).map_err(|e| e.to_string())?;
    Ok(owned)
}

/// A data's owned copy.
pub fn copy_data(m: &Model, d: &Data) -> Result<OwnedData, String> {
    let mut owned = OwnedData::new(m).map_err(|e| e.to_string())?;
    owned.view().copy_from(d).map_err(|e| e.to_string())?;
    Ok(owned)
}

impl Mailbox {
    /// A mailbox holding copies of `m` and `d`, not yet shown.
    pub fn new(m: &Model, d: &Data) -> Result<Arc<Mailbox>, String> {
        Ok(Arc::new(Mailbox(Mutex::new(Exchange {
            model: copy_model(m)?,
            data: copy_data(m, d)?,
            fresh: true,
            changes: Vec::new(),
            opt: None,
            cam: Camera::default_free(m),
            vopt: VisOption::default(),
            pert: Perturb::default(),
            user_cam: None,
            user_vopt: None,
            user_geoms: Vec::new(),
            opened: false,
            frames: 0,
            closed: false,
            error: None,
            close_request: false,
        }))))
    }

    /// The exchange; a panic on the other side leaves it usable.
    pub fn lock(&self) -> MutexGuard<'_, Exchange> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Exchange {
    /// The program's side of a sync: the viewer's changes into `m` and `d`, then copies of
    /// them for the viewer. `m` must be the model the viewer was opened with (its sizes).
    pub fn sync(&mut self, m: &mut Model, d: &mut Data) -> Result<(), String> {
        if m.sizes() != self.model.sizes() {
            return Err("the model has other sizes than the viewer's".into());
        }
        if !self.changes.is_empty() {
            let mut state = integration_state(m, d)?;
            for (i, v) in self.changes.drain(..) {
                state[i] = v;
            }
            mjrs_core::state::set_state(m, d, &state, STATE_INTEGRATION)
                .map_err(|e| e.to_string())?;
        }
        if let Some(opt) = self.opt.take() {
            m.opt = opt;
        }
        self.model.view().copy_from(m).map_err(|e| e.to_string())?;
        self.data.view().copy_from(d).map_err(|e| e.to_string())?;
        self.fresh = true;
        Ok(())
    }
}

/// The viewer's side: its mailbox and what it last took from the program, to tell its own
/// changes apart.
pub(super) struct Link {
    pub(super) mailbox: Arc<Mailbox>,
    base: Vec<Real>,
    base_opt: Option<PhysicsOptions>,
    now: Vec<Real>,
}

impl Link {
    pub(super) fn new(mailbox: Arc<Mailbox>) -> Link {
        Link {
            mailbox,
            base: Vec::new(),
            base_opt: None,
            now: Vec::new(),
        }
    }

    /// Before the frame's synchronization: the program's last model and data into the
    /// viewer's `m` and `d` when a sync left new ones, and the program's camera and options.
    pub(super) fn take(
        &mut self,
        ex: &mut Exchange,
        m: &mut Model,
        d: &mut Data,
        cam: &mut Camera,
        vopt: &mut VisOption,
    ) -> Result<(), String> {
        if let Some(c) = ex.user_cam.take() {
            *cam = c;
        }
        if let Some(o) = ex.user_vopt.take() {
            *vopt = o;
        }
        if !core::mem::take(&mut ex.fresh) {
            return Ok(());
        }
        m.copy_from(&ex.model.view()).map_err(|e| e.to_string())?;
        d.copy_from(&ex.data.view()).map_err(|e| e.to_string())?;
        self.base = integration_state(m, d)?;
        self.base_opt = Some(m.opt);
        Ok(())
    }

    /// After it: what the viewer changed in `m` and `d` since it took them, for the next
    /// sync; its camera, options and perturbation.
    pub(super) fn report(
        &mut self,
        ex: &mut Exchange,
        m: &Model,
        d: &Data,
        shown: (&Camera, &VisOption, &Perturb),
    ) -> Result<(), String> {
        self.now = integration_state(m, d)?;
        for (i, (now, base)) in self.now.iter().zip(&mut self.base).enumerate() {
            if now.to_bits() != base.to_bits() {
                ex.changes.retain(|&(k, _)| k != i);
                ex.changes.push((i, *now));
                *base = *now;
            }
        }
        if self.base_opt.as_ref().is_some_and(|o| *o != m.opt) {
            ex.opt = Some(m.opt);
            self.base_opt = Some(m.opt);
        }
        ex.cam = shown.0.clone();
        ex.vopt = shown.1.clone();
        ex.pert = shown.2.clone();
        ex.frames += 1;
        Ok(())
    }
}

/// The integration state of `d` (`STATE_INTEGRATION`).
fn integration_state(m: &Model, d: &Data) -> Result<Vec<Real>, String> {
    let n = mjrs_core::state::state_size(m, STATE_INTEGRATION).map_err(|e| e.to_string())?;
    let mut state = vec![0.0; n];
    mjrs_core::state::get_state(m, d, &mut state, STATE_INTEGRATION).map_err(|e| e.to_string())?;
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sync_takes_the_viewers_changes_and_keeps_the_programs_other_values() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/models/hopper.xml");
        let mut user_model = mjrs_xml::load_xml(path, None).unwrap().model;
        let mut m = user_model.view();
        let mut user_data = OwnedData::new(&m).unwrap();
        let mut d = user_data.view();
        mjrs_core::forward(&m, &mut d).unwrap();
        let mailbox = Mailbox::new(&m, &d).unwrap();
        let (mut viewer_model, mut viewer_data) =
            (copy_model(&m).unwrap(), copy_data(&m, &d).unwrap());
        let (mut vm, mut vd) = (viewer_model.view(), viewer_data.view());
        let (mut cam, mut vopt, pert) =
            (Camera::default(), VisOption::default(), Perturb::default());
        let mut link = Link::new(mailbox.clone());

        // a frame: the viewer takes the copies, a slider moves a joint, a panel the timestep
        let mut ex = mailbox.lock();
        link.take(&mut ex, &mut vm, &mut vd, &mut cam, &mut vopt)
            .unwrap();
        vd.qpos[2] = 0.3;
        vm.opt.timestep = 0.01;
        link.report(&mut ex, &vm, &vd, (&cam, &vopt, &pert))
            .unwrap();
        drop(ex);

        // the program steps, then syncs: the two changes, the program's own other values
        mjrs_core::step(&m, &mut d).unwrap();
        let stepped = d.qpos.to_vec();
        mailbox.lock().sync(&mut m, &mut d).unwrap();
        assert_eq!(d.qpos[2], 0.3);
        assert_eq!(d.qpos[..2], stepped[..2]);
        assert_eq!(d.qpos[3..], stepped[3..]);
        assert_eq!(m.opt.timestep, 0.01);

        // the next frame shows the program's data; with nothing changed in the window, the
        // program's next values stay
        let mut ex = mailbox.lock();
        link.take(&mut ex, &mut vm, &mut vd, &mut cam, &mut vopt)
            .unwrap();
        assert_eq!(vd.time, d.time);
        link.report(&mut ex, &vm, &vd, (&cam, &vopt, &pert))
            .unwrap();
        drop(ex);
        d.qpos[2] = 0.5;
        mailbox.lock().sync(&mut m, &mut d).unwrap();
        assert_eq!(d.qpos[2], 0.5);
        assert_eq!(mailbox.lock().frames, 2);
    }
}
