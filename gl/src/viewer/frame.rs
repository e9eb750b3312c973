//! One frame of the viewer (simulate's render loop): synchronize with the physics under the
//! lock (`Sync`: the UI's requests, the scene state, perturbations), then, with the lock
//! released, bring the panels to the state, build the scene from it and draw (`Render`).

use super::panels::printf;
use super::physics::{lock, Sim};
use super::{hud, App, PERCENT_REAL_TIME};
use crate::render::{self, Font, GridPos, Rect};
use crate::ui::{self, Button};
use crate::vis::{self, camera_type, interact, update_scene_from_state, Camera};
use mjrs_core::{Data, Model, Real};
use std::fmt::Write as _;
use winit::event_loop::ActiveEventLoop;

/// The selection mode of a double click: 1 select a body (left), 2 look at the point
/// (right), 3 and track its body (ctrl + right).
fn selection_mode(button: Button, control: bool) -> i32 {
    match (button, control) {
        (Button::Left, _) => 1,
        (_, true) => 3,
        _ => 2,
    }
}

/// Write `text` to `path` in the current directory, saying where it went.
fn save_text(path: &str, text: &str) -> String {
    match std::fs::write(path, text) {
        Ok(()) => format!("saved {path}"),
        Err(e) => format!("cannot write {path}: {e}"),
    }
}

/// The pose as a keyframe element (`CopyPose`).
fn pose_text(m: &Model, d: &Data) -> String {
    let mut s = String::from("<key qpos='");
    for (i, q) in d.qpos[..m.nq].iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(&printf("%g", *q));
    }
    s.push_str("'/>");
    s
}

/// Store the state in keyframe `k` (simulate's "Save key").
fn save_key(m: &mut Model, d: &Data, k: usize) {
    if k >= m.nkey {
        return;
    }
    let copy = |dst: &mut [Real], src: &[Real], n: usize| {
        dst[k * n..(k + 1) * n].copy_from_slice(&src[..n]);
    };
    let (nq, nv, na, nmocap, nu) = (m.nq, m.nv, m.na, m.nmocap, m.nu);
    m.key_time[k] = d.time;
    copy(&mut m.key_qpos, d.qpos, nq);
    copy(&mut m.key_qvel, d.qvel, nv);
    copy(&mut m.key_act, d.act, na);
    copy(&mut m.key_mpos, d.mocap_pos, 3 * nmocap);
    copy(&mut m.key_mquat, d.mocap_quat, 4 * nmocap);
    copy(&mut m.key_ctrl, d.ctrl, nu);
}

impl App<'_, '_, '_, '_> {
    /// Handle the script's inputs for this frame, synchronize, draw.
    pub(super) fn frame(&mut self, event_loop: &ActiveEventLoop) -> Result<(), String> {
        if self.win.is_none() {
            return Ok(());
        }
        let now: Vec<_> = (self.opts.script.iter())
            .filter(|(f, _)| *f == self.frames)
            .map(|(_, i)| *i)
            .collect();
        for input in now {
            self.input(event_loop, input);
        }
        let r0 = self.uistate.rect[0];
        if r0.width <= 0 || r0.height <= 0 {
            return Ok(());
        }
        {
            let sim = self.sim;
            let mut s = lock(sim);
            if s.exit {
                event_loop.exit();
                return Ok(());
            }
            if self.passive.is_some() {
                if self.passive_sync(&mut s)? {
                    event_loop.exit();
                    return Ok(());
                }
            } else {
                self.sync(&mut s)?;
            }
        }
        self.refresh_panels()?;
        update_scene_from_state(
            &mut self.state,
            &self.vopt,
            &self.pert,
            &mut self.cam,
            vis::CAT_ALL,
            &mut self.scn,
        )
        .map_err(|e| e.to_string())?;
        let room = self.scn.maxgeom.saturating_sub(self.scn.geoms.len());
        let added = self.user_geoms.iter().take(room).cloned();
        self.scn.geoms.extend(added);
        self.render(event_loop)
    }

    /// Passive mode's synchronization: the program's last model and data into the viewer's
    /// copies, simulate's `Sync` on them, and what it changed back to the mailbox. True when
    /// the program asked the viewer to close.
    fn passive_sync(&mut self, s: &mut Sim) -> Result<bool, String> {
        let Some(mut link) = self.passive.take() else {
            return Ok(false);
        };
        let mailbox = link.mailbox.clone();
        let mut ex = mailbox.lock();
        let result = (|| {
            if ex.close_request {
                return Ok(true);
            }
            link.take(&mut ex, s.m, s.d, &mut self.cam, &mut self.vopt)?;
            self.user_geoms.clone_from(&ex.user_geoms);
            self.sync(s)?;
            link.report(&mut ex, s.m, s.d, (&self.cam, &self.vopt, &self.pert))?;
            Ok(false)
        })();
        self.passive = Some(link);
        result
    }

    /// simulate's `Sync`, under the lock: do what the UI asked, copy the model and data into
    /// the scene state, take the physics' news, apply the perturbation.
    fn sync(&mut self, s: &mut Sim) -> Result<(), String> {
        self.do_pending(s);
        self.select(s);
        self.state.update(s.m, s.d).map_err(|e| e.to_string())?;
        if s.run != self.running {
            self.ui0.pending.push((-1, -1));
            self.ui1.pending.push((-1, -1));
        }
        self.running = s.run;
        self.paused
            .store(!s.run, std::sync::atomic::Ordering::Relaxed);
        self.settings.run = i32::from(s.run);
        self.settings.ctrl_noise_std = s.noise_std;
        self.settings.ctrl_noise_rate = s.noise_rate;
        s.busywait = self.settings.busywait != 0;
        self.step_time = s.step_time;
        self.measured_slowdown = s.measured_slowdown;
        self.speed = s.speed;
        if let Some(msg) = s.message.take() {
            self.hud.message = msg;
        }
        if self.settings.profiler != 0 && (self.settings.pause_update != 0 || s.run) {
            self.hud.record_step(s.d, s.step_time);
        }
        if let Err(e) = self.perturb(s) {
            self.hud.message = e;
        }
        Ok(())
    }

    /// The requests of the panels and keys (`pending_`).
    fn do_pending(&mut self, s: &mut Sim) {
        let p = core::mem::take(&mut self.pending);
        let (m, d) = (&mut *s.m, &mut *s.d);
        if p.reload {
            self.reload(m, d);
            s.forward();
        }
        let (m, d) = (&mut *s.m, &mut *s.d);
        if p.reset {
            mjrs_core::io::reset_data(m, d);
            s.forward();
            self.settings.scrub_index = 0;
            self.hud.clear();
        }
        let (m, d) = (&mut *s.m, &mut *s.d);
        if p.align {
            self.cam = Camera::default_free(m);
        }
        if p.copy_pose {
            self.hud.message = pose_text(m, d);
            println!("{}", self.hud.message);
        }
        if p.load_history {
            s.history.load(m, d, self.settings.scrub_index);
            s.forward();
        }
        let (m, d) = (&mut *s.m, &mut *s.d);
        if p.load_key && (0..m.nkey as i32).contains(&self.settings.key) {
            mjrs_core::io::reset_data_keyframe(m, d, self.settings.key);
            s.forward();
        }
        let (m, d) = (&mut *s.m, &mut *s.d);
        if p.save_key {
            save_key(m, d, self.settings.key.max(0) as usize);
        }
        if p.zero_ctrl {
            d.ctrl.fill(0.0);
        }
        if p.newperturb != 0 && interact::init_perturb(m, d, &self.scn, &mut self.pert).is_ok() {
            self.pert.active = p.newperturb;
        }
        self.pending.select = p.select;
        self.files(&p, m, d);
        self.pending.screenshot = p.screenshot;
    }

    /// Simulate's Reload: the model compiled again from its file, a fresh state, the model's
    /// meshes, textures and height fields uploaded again.
    fn reload(&mut self, m: &mut Model, d: &mut Data) {
        let Some(reload) = self.opts.reload.clone() else {
            self.hud.message = "Reload: the viewer was given a model, not a file".into();
            return;
        };
        if let Err(e) = reload.0(m) {
            self.hud.message = format!("Reload: {e}");
            return;
        }
        mjrs_core::io::reset_data(m, d);
        self.settings.scrub_index = 0;
        self.hud.clear();
        self.hud.message = "reloaded".into();
        if let (Some(w), Some(con)) = (&self.win, &mut self.con) {
            let uploads = (0..m.ntex)
                .try_for_each(|k| con.upload_texture(w.gl(), m, k))
                .and_then(|()| (0..m.nmesh).try_for_each(|k| con.upload_mesh(w.gl(), m, k)))
                .and_then(|()| (0..m.nhfield).try_for_each(|k| con.upload_hfield(w.gl(), m, k)));
            if let Err(e) = uploads {
                self.hud.message = format!("Reload: {e}");
            }
        }
    }

    /// The file section's requests, written to the current directory as simulate does
    /// without a file dialog.
    fn files(&mut self, p: &super::Pending, m: &Model, d: &Data) {
        if p.save_xml {
            self.hud.message = match &self.opts.save_xml {
                Some(save) => match save.0(m) {
                    Ok(text) => match mjrs_std::write_file("mjmodel.xml", &text) {
                        Ok(()) => "saved mjmodel.xml".into(),
                        Err(e) => format!("cannot save mjmodel.xml: {e}"),
                    },
                    Err(e) => format!("cannot save mjmodel.xml: {e}"),
                },
                None => "Save xml: the model was not loaded from MJCF".into(),
            };
        }
        if p.save_mjb {
            let real = core::mem::size_of::<Real>();
            self.hud.message = match mjrs_std::mjb_file::save_mjb(m, "mjmodel.mjb", real) {
                Ok(()) => "saved mjmodel.mjb".into(),
                Err(e) => format!("cannot save mjmodel.mjb: {e}"),
            };
        }
        if p.print_model {
            let mut text = String::new();
            let _ = mjrs_core::print::print_model(m, &mut text);
            self.hud.message = save_text("MJMODEL.TXT", &text);
        }
        if p.print_data {
            let mut text = String::new();
            let _ = mjrs_core::print::print_data(m, d, &mut text);
            self.hud.message = save_text("MJDATA.TXT", &text);
        }
    }

    /// A double click's selection (`pending_.select`): select the body under the mouse, or
    /// look at the point and perhaps track its body.
    fn select(&mut self, s: &mut Sim) {
        let Some((button, control, relx, rely, aspect)) = self.pending.select.take() else {
            return;
        };
        let (m, d) = (&*s.m, &mut *s.d);
        let hit = interact::select(m, d, &self.vopt, aspect, relx, rely, &self.scn)
            .ok()
            .flatten();
        match (selection_mode(button, control), hit) {
            (1, Some(h)) => {
                self.pert.select = h.body;
                self.pert.flexselect = h.flex;
                self.pert.skinselect = h.skin;
                let b = h.body as usize;
                let p: [Real; 3] = core::array::from_fn(|k| h.point[k] - d.xpos[3 * b + k]);
                let r = &d.xmat[9 * b..9 * b + 9];
                self.pert.localpos =
                    core::array::from_fn(|k| r[k] * p[0] + r[3 + k] * p[1] + r[6 + k] * p[2]);
            }
            (1, None) => {
                self.pert.select = 0;
                self.pert.flexselect = -1;
                self.pert.skinselect = -1;
            }
            (mode, Some(h)) => {
                self.cam.lookat = h.point;
                if mode == 3 && h.body > 0 {
                    self.cam.type_ = camera_type::TRACKING;
                    self.cam.trackbodyid = h.body;
                    self.cam.fixedcamid = -1;
                    self.settings.camera = 1;
                }
            }
            _ => {}
        }
    }

    /// Running: the perturbation's forces on the next steps; paused: the perturbed body
    /// moved to where the mouse put it.
    fn perturb(&mut self, s: &mut Sim) -> Result<(), String> {
        let (m, d) = (&*s.m, &mut *s.d);
        let r = if s.run {
            d.xfrc_applied.fill(0.0);
            interact::apply_perturb_pose(m, d, &self.pert, false)
                .and_then(|()| interact::apply_perturb_force(m, d, &self.pert))
        } else {
            interact::apply_perturb_pose(m, d, &self.pert, true)
        };
        r.map_err(|e| e.to_string())
    }

    /// simulate's `UiModify` for UI `k`: layout, its buffer, a full redraw.
    fn ui_modify(&mut self, k: usize) -> Result<(), String> {
        let (Some(win), Some(con)) = (&self.win, &mut self.con) else {
            return Ok(());
        };
        let u = if k == 0 { &mut self.ui0 } else { &mut self.ui1 };
        ui::resize(u, &self.metrics);
        u.pending.clear();
        let (w, h) = (u.width, u.maxheight);
        if w > 0 && h > 0 {
            let gl = win.gl();
            con.add_aux(gl, u.auxid, w, h, u.spacing.samples)
                .map_err(|e| e.to_string())?;
            u.pending.push((-1, -1));
        }
        self.layout();
        Ok(())
    }

    fn render(&mut self, event_loop: &ActiveEventLoop) -> Result<(), String> {
        if self.font_changed {
            self.font_changed = false;
            if let (Some(w), Some(con)) = (&self.win, &mut self.con) {
                con.change_font(w.gl(), 50 * (self.settings.font + 1))
                    .map_err(|e| e.to_string())?;
                self.metrics = con.font_metrics();
            }
            self.modify = [true, true];
        }
        for k in 0..2 {
            if core::mem::take(&mut self.modify[k]) {
                self.ui_modify(k)?;
            }
        }
        let (Some(win), Some(con)) = (&self.win, &self.con) else {
            return Ok(());
        };
        let gl = win.gl();
        for u in [&mut self.ui0, &mut self.ui1] {
            if u.width > 0 && u.maxheight > 0 {
                ui::update_pending(u, &self.uistate, gl, con).map_err(|e| e.to_string())?;
            } else {
                u.pending.clear();
            }
        }
        let rect = self.uistate.rect[3];
        let mut small = rect;
        if self.settings.profiler != 0 {
            small.width = rect.width - rect.width / 4;
        }
        render::rectangle(gl, con, self.uistate.rect[0], [0.0, 0.0, 0.0, 1.0]);
        render::render(gl, rect, &mut self.scn, con).map_err(|e| e.to_string())?;
        self.labels(small);
        for (on, u) in [
            (self.ui0_enable, &mut self.ui0),
            (self.ui1_enable, &mut self.ui1),
        ] {
            if on && u.width > 0 && u.maxheight > 0 {
                ui::render(u, &self.uistate, gl, con).map_err(|e| e.to_string())?;
            }
        }
        let shown = hud::Shown {
            help: self.settings.help != 0,
            info: self.settings.info != 0,
            profiler: self.settings.profiler != 0,
            sensor: self.settings.sensor != 0,
        };
        let extra = hud::InfoExtra {
            fps: self.fps,
            step_time: self.step_time,
        };
        let (m, d) = self.state.views();
        self.hud.draw(gl, con, rect, &m, &d, shown, &extra);
        drop((m, d));
        self.frames += 1;
        self.count_fps();
        let last = self.opts.frames.is_some_and(|n| self.frames >= n);
        if core::mem::take(&mut self.pending.screenshot) {
            let path = std::path::PathBuf::from("screenshot.png");
            self.hud.message = match self.screenshot(&path) {
                Ok(()) => "saved screenshot.png".into(),
                Err(e) => e,
            };
        }
        if last {
            if let Some(path) = self.opts.screenshot.clone() {
                self.screenshot(&path)?;
            }
        }
        if let Some(w) = &self.win {
            w.swap()?;
        }
        if last {
            event_loop.exit();
        }
        Ok(())
    }

    /// The pause label and the real-time label over the scene (simulate's).
    fn labels(&self, small: Rect) {
        let (Some(win), Some(con)) = (&self.win, &self.con) else {
            return;
        };
        let gl = win.gl();
        if !self.running {
            let label = match self.settings.scrub_index {
                0 => "PAUSE".to_string(),
                k => format!("PAUSE ({k})"),
            };
            render::overlay(gl, con, Font::Big, GridPos::Top, small, &label, "");
        }
        let desired = PERCENT_REAL_TIME[self.speed];
        let actual = 100.0 / self.measured_slowdown;
        let misaligned = self.running && (actual - desired).abs() > 0.1 * desired;
        let mut label = String::new();
        if desired != 100.0 || misaligned {
            let _ = write!(label, "{}%", printf("%g", desired));
            if misaligned {
                let _ = write!(label, " ({actual:<4.1}%)");
            }
            render::overlay(gl, con, Font::Big, GridPos::TopLeft, small, &label, "");
        }
    }

    /// Frames per second, measured at most five times a second.
    fn count_fps(&mut self) {
        self.fps_frames += 1;
        let dt = self.fps_since.elapsed().as_secs_f64();
        if dt > 0.2 {
            self.fps = self.fps_frames as f64 / dt;
            self.fps_frames = 0;
            self.fps_since = std::time::Instant::now();
        }
    }

    /// Save the whole window as a PNG.
    fn screenshot(&self, path: &std::path::Path) -> Result<(), String> {
        let (Some(win), Some(con)) = (&self.win, &self.con) else {
            return Ok(());
        };
        let full = self.uistate.rect[0];
        let (w, h) = (full.width, full.height);
        let mut rgb = vec![0u8; (w * h * 3) as usize];
        render::read_pixels(win.gl(), con, full, Some(&mut rgb), None)
            .map_err(|e| e.to_string())?;
        let top_down: Vec<u8> = rgb
            .chunks((w * 3) as usize)
            .rev()
            .flatten()
            .copied()
            .collect();
        render::write_png(path, w as u32, h as u32, &top_down)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn double_clicks_select_look_or_track() {
        assert_eq!(selection_mode(Button::Left, true), 1);
        assert_eq!(selection_mode(Button::Right, false), 2);
        assert_eq!(selection_mode(Button::Right, true), 3);
    }
}
