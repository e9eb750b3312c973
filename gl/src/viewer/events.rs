//! What an input does (simulate's `UiEvent`), under the physics lock as simulate handles its
//! events: the left panel, then the right one, then simulate's own keys, then the scene
//! (zoom, perturbation, selection, camera).

use super::input::{self, Input};
use super::physics::{lock, Sim, PERCENT_REAL_TIME};
use super::App;
use crate::ui::{self, EventType};
use crate::vis::{camera_type, frame, interact, label};
use crate::vis::{move_camera_from_state, move_perturb_from_state};
use winit::event_loop::ActiveEventLoop;

/// F6: cycle the frames shown; F7: the labels.
const KEY_F6: i32 = ui::KEY_F1 + 5;
const KEY_F7: i32 = ui::KEY_F1 + 6;

impl App<'_, '_, '_, '_> {
    /// One input from the window or the script.
    pub(super) fn input(&mut self, event_loop: &ActiveEventLoop, i: Input) {
        if input::translate(i, &mut self.raw, &mut self.uistate, self.epoch).is_none() {
            return;
        }
        let sim = self.sim;
        let mut s = lock(sim);
        self.ui_event(&mut s);
        input::end_drag(&mut self.uistate);
        if s.exit {
            event_loop.exit();
        }
    }

    /// Whether the event goes to the UI in rectangle `rectid` (`UiEvent`'s test).
    fn directed_to(&self, rectid: usize) -> bool {
        let st = &self.uistate;
        let r = rectid as i32;
        st.dragrect == r || (st.dragrect == 0 && st.mouserect == r) || st.kind == EventType::Key
    }

    fn ui_event(&mut self, s: &mut Sim) {
        let key = self.uistate.kind == EventType::Key;
        if self.directed_to(self.ui0.rectid) {
            let it = ui::event(&mut self.ui0, &mut self.uistate, &self.metrics);
            if let Some(id) = it {
                self.left_changed(s, id);
            }
            if it.is_some() || (key && self.uistate.key == 0) {
                return;
            }
        }
        if self.directed_to(self.ui1.rectid) {
            let it = ui::event(&mut self.ui1, &mut self.uistate, &self.metrics);
            if let Some(id) = it {
                self.right_changed(s, id);
            }
            if it.is_some() || (key && self.uistate.key == 0) {
                return;
            }
        }
        if key {
            if self.uistate.key != 0 {
                self.key(s, self.uistate.key);
            }
            return;
        }
        self.scene_event();
    }

    /// simulate's own keys (those no panel took).
    fn key(&mut self, s: &mut Sim, key: i32) {
        let shift = self.uistate.shift;
        // passive: the program runs the physics, so not the keys that run, step or scrub it
        let managed = self.passive.is_none();
        match key {
            32 if managed => {
                s.run = !s.run;
                self.pert.active = 0;
                if s.run {
                    self.settings.scrub_index = 0;
                }
                self.ui0.pending.push((-1, -1));
            }
            ui::KEY_RIGHT if managed && !s.run => {
                if self.settings.scrub_index < 0 {
                    self.settings.scrub_index += 1;
                    self.pending.load_history = true;
                } else {
                    s.step();
                    s.history.add(s.m, s.d);
                }
            }
            ui::KEY_LEFT if managed => {
                s.run = false;
                let oldest = 1 - s.history.len() as i32;
                self.settings.scrub_index = (self.settings.scrub_index - 1).max(oldest.min(0));
                self.pending.load_history = true;
            }
            ui::KEY_PAGE_UP if self.pert.select > 0 => {
                let parent = self.body_parentid.get(self.pert.select as usize).copied();
                self.pert.select = parent.unwrap_or(0);
                self.pert.flexselect = -1;
                self.pert.skinselect = -1;
                if self.pert.select <= 0 {
                    self.pert.active = 0;
                }
            }
            93 | 91 if s.m.ncam > 0 => self.cycle_camera(key == 93, s.m.ncam as i32),
            KEY_F6 => self.vopt.frame = (self.vopt.frame + 1) % frame::COUNT,
            KEY_F7 => self.vopt.label = (self.vopt.label + 1) % label::COUNT,
            ui::KEY_ESCAPE => {
                self.cam.type_ = camera_type::FREE;
                self.settings.camera = 0;
            }
            45 if managed && !shift && s.speed + 1 < PERCENT_REAL_TIME.len() => {
                s.speed += 1;
                s.speed_changed = true;
            }
            61 if managed && !shift && s.speed > 0 => {
                s.speed -= 1;
                s.speed_changed = true;
            }
            ui::KEY_TAB => {
                let k = usize::from(shift);
                if shift {
                    self.ui1_enable = !self.ui1_enable;
                } else {
                    self.ui0_enable = !self.ui0_enable;
                }
                self.modify[k] = true;
                self.layout();
            }
            _ => {}
        }
    }

    /// `]` the next model camera, `[` the previous one (free and tracking are left out).
    fn cycle_camera(&mut self, up: bool, ncam: i32) {
        let c = self.settings.camera;
        self.settings.camera = match up {
            true if c < 2 || c == 2 + ncam - 1 => 2,
            true => c + 1,
            false if c <= 2 => 2 + ncam - 1,
            false => c - 1,
        };
        self.cam.type_ = camera_type::FIXED;
        self.cam.fixedcamid = self.settings.camera - 2;
    }

    /// Mouse events on the scene: zoom, start or stop a perturbation, select, move the
    /// camera or the perturbed body.
    fn scene_event(&mut self) {
        let st = &self.uistate;
        let r = st.rect[3];
        match st.kind {
            EventType::Scroll if st.mouserect == 3 => {
                let dy = -ZOOM * st.sy;
                let zoom = interact::mouse::ZOOM;
                let _ = move_camera_from_state(
                    &mut self.state,
                    zoom,
                    0.0,
                    dy,
                    &self.scn,
                    &mut self.cam,
                );
            }
            EventType::Press if st.mouserect == 3 => {
                if st.control && self.pert.select > 0 {
                    let kind = if st.right {
                        interact::pert::TRANSLATE
                    } else if st.left {
                        interact::pert::ROTATE
                    } else {
                        0
                    };
                    if kind != 0 && self.pert.active == 0 {
                        self.pending.newperturb = kind;
                    }
                }
                if st.doubleclick && r.width > 0 && r.height > 0 {
                    let relx = (st.x - f64::from(r.left)) / f64::from(r.width);
                    let rely = (st.y - f64::from(r.bottom)) / f64::from(r.height);
                    let aspect = f64::from(r.width) / f64::from(r.height);
                    self.pending.select = Some((st.button, st.control, relx, rely, aspect));
                    self.pert.active = 0;
                    self.pending.newperturb = 0;
                }
            }
            EventType::Release if st.dragrect == 3 => {
                self.pert.active = 0;
                self.pending.newperturb = 0;
            }
            EventType::Move if st.dragrect == 3 && r.height > 0 => {
                let action = match (st.right, st.left, st.shift) {
                    (true, _, true) => interact::mouse::MOVE_H,
                    (true, _, false) => interact::mouse::MOVE_V,
                    (false, true, true) => interact::mouse::ROTATE_H,
                    (false, true, false) => interact::mouse::ROTATE_V,
                    _ => interact::mouse::ZOOM,
                };
                let h = f64::from(r.height);
                let (dx, dy) = (st.dx / h, -st.dy / h);
                let moved = if self.pert.active != 0 {
                    move_perturb_from_state(
                        &mut self.state,
                        action,
                        dx,
                        dy,
                        &self.scn,
                        &mut self.pert,
                    )
                } else {
                    move_camera_from_state(
                        &mut self.state,
                        action,
                        dx,
                        dy,
                        &self.scn,
                        &mut self.cam,
                    )
                };
                if let Err(e) = moved {
                    self.hud.message = e.to_string();
                }
            }
            _ => {}
        }
    }
}

/// Zoom of one wheel click, as a share of the view's height (`zoom_increment`).
const ZOOM: f64 = 0.02;

#[cfg(test)]
mod tests {
    #[test]
    fn function_keys_follow_f1() {
        assert_eq!((super::KEY_F6, super::KEY_F7), (295, 296));
    }
}
