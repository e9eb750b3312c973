//! simulate's two panels on the UI framework: made from `ui::simulate`'s definitions, kept
//! in step with the model and data (values each frame; the sections rebuilt when their
//! items change, as simulate remakes its joint and control sections), and what a changed
//! item does (simulate's `UiEvent`, section by section).

use super::physics::Sim;
use super::App;
use crate::ui::simulate::{self, DISABLESTRING, ENABLESTRING};
use crate::ui::{self, Def, DefType, Item, ItemId, ItemType, Ui, Value};
use crate::vis::{camera_type, flag, rnd, Camera, VisOption};
use mjrs_core::types::{OBJ_ACTUATOR, OBJ_JOINT};
use mjrs_core::{Data, Model, Real};

/// An empty UI in the given themes drawing into auxiliary buffer `auxid`, shown in the
/// state's rectangle `rectid`.
pub fn empty_ui(spacing: i32, color: i32, rectid: usize, predicate: ui::Predicate) -> Ui {
    let mut u = Ui::new(ui::theme_spacing(spacing), ui::theme_color(color));
    u.rectid = rectid;
    u.auxid = rectid - 1;
    u.predicate = Some(predicate);
    u
}

/// Open states of `u`'s sections `from..from + N` (0 for missing ones).
pub fn old_states<const N: usize>(u: &Ui, from: usize) -> [i32; N] {
    core::array::from_fn(|k| u.sect.get(from + k).map_or(0, |s| s.state))
}

/// Whether `u` has exactly the sections and items of `defs` (types, names and activity;
/// values and open states aside).
fn same_structure(u: &Ui, defs: &[Def]) -> bool {
    let mut items = u.sect.iter().flat_map(|s| {
        core::iter::once((DefType::Section, s.name.as_str(), -1)).chain(
            s.item
                .iter()
                .map(|it| (DefType::Item(it.kind), it.name.as_str(), state_of(it))),
        )
    });
    defs.iter().all(|d| {
        let state = match d.kind {
            DefType::Item(ItemType::Separator) | DefType::Section => -1,
            DefType::Item(_) => d.state,
        };
        items.next() == Some((d.kind, d.name.as_str(), state))
    }) && items.next().is_none()
}

/// The state compared between a UI and its definitions (separators' is the user's).
fn state_of(it: &Item) -> i32 {
    if it.kind == ItemType::Separator {
        -1
    } else {
        it.state
    }
}

/// Bring `u` to `defs`: when the items differ, make the UI again from them keeping the open
/// states of sections and separators (returns true: the layout must be redone); otherwise
/// copy the values that changed and queue their sections' redraws. Items being edited keep
/// their text.
pub fn sync_ui(u: &mut Ui, defs: &[Def]) -> Result<bool, ui::UiError> {
    if !same_structure(u, defs) {
        rebuild(u, defs)?;
        return Ok(true);
    }
    let mut k = 0;
    for (s, sect) in u.sect.iter_mut().enumerate() {
        k += 1; // the section's definition
        let mut changed = false;
        for (i, it) in sect.item.iter_mut().enumerate() {
            let def = &defs[k];
            k += 1;
            let editing = u.editsect == s as i32 + 1 && u.edititem == i as i32;
            if it.kind.has_data() && !editing && it.value != def.value {
                it.value.clone_from(&def.value);
                changed = true;
            }
        }
        if changed && !u.pending.contains(&(s as i32, -1)) {
            u.pending.push((s as i32, -1));
        }
    }
    Ok(false)
}

/// Make `u` again from `defs`, keeping its sections' and separators' open states.
fn rebuild(u: &mut Ui, defs: &[Def]) -> Result<(), ui::UiError> {
    let old = core::mem::take(&mut u.sect);
    u.add(defs)?;
    for (new, old) in u.sect.iter_mut().zip(&old) {
        if new.name == old.name {
            new.state = old.state;
        }
        for (a, b) in new.item.iter_mut().zip(&old.item) {
            if a.kind == ItemType::Separator && b.kind == ItemType::Separator && a.name == b.name {
                a.state = b.state;
            }
        }
    }
    u.mousesect = 0;
    u.editsect = 0;
    u.pending.clear();
    u.pending.push((-1, -1));
    Ok(())
}

/// Set the ranges simulate sets after loading: keyframe slider over the model's keyframes,
/// history slider over the states kept.
pub fn set_slider_ranges(u: &mut Ui, nkey: usize, nhistory: usize) {
    let Some(sim) = u.sect.get_mut(simulate::SECT_SIMULATION) else {
        return;
    };
    if let Some(key) = sim.item.get_mut(5) {
        key.slider.range = [0.0, nkey.saturating_sub(1) as f64];
        key.slider.divisions = nkey.saturating_sub(1).max(1) as f64;
    }
    if let Some(scrub) = sim.item.get_mut(11) {
        scrub.slider.range[0] = 1.0 - nhistory as f64;
        scrub.slider.divisions = nhistory as f64;
    }
}

/// The value of a watched field (`UpdateWatch`): element `index` of the data's `mjtNum`
/// array `field`.
pub fn watch_text(d: &Data, field: &str, index: i32) -> String {
    struct Find<'f> {
        field: &'f str,
        index: i32,
        found: Option<String>,
    }
    impl mjrs_core::layout::ArrayVisitor for Find<'_> {
        fn array<T: mjrs_core::layout::Elem>(
            &mut self,
            info: &mjrs_core::layout::FieldInfo,
            data: &[T],
        ) {
            if self.found.is_some()
                || info.name != self.field
                || info.kind != mjrs_core::layout::Kind::Num
            {
                return;
            }
            let value = usize::try_from(self.index).ok().and_then(|i| data.get(i));
            self.found = Some(match value.map(|v| v.to_scalar()) {
                Some(mjrs_core::layout::Scalar::Real(x)) => printf("%g", x),
                _ => "invalid index".into(),
            });
        }
    }
    let mut find = Find {
        field,
        index,
        found: None,
    };
    d.visit(&mut find);
    find.found.unwrap_or_else(|| "invalid field".into())
}

/// A number in a C format ("%g", "%.2g").
pub fn printf(format: &str, x: f64) -> String {
    let mut s = String::new();
    // writing to a String cannot fail
    let _ = mjrs_core::print::FloatFormat::parse(format)
        .unwrap_or(mjrs_core::print::FloatFormat::DEFAULT)
        .write(&mut s, x);
    s
}

/// The numbers of an edit item.
fn nums(it: &Item) -> Vec<f64> {
    let n = it.edit.nelem;
    match &it.value {
        Some(Value::Nums(a)) => a[..n].to_vec(),
        Some(Value::Floats(a)) => a[..n].iter().map(|&x| f64::from(x)).collect(),
        Some(Value::Ints(a)) => a[..n].iter().map(|&x| f64::from(x)).collect(),
        Some(Value::Num(x)) => vec![*x],
        Some(v) => vec![f64::from(v.int())],
        None => Vec::new(),
    }
}

fn int(it: &Item) -> i32 {
    match &it.value {
        Some(Value::Ints(a)) => a[0],
        Some(v) => v.int(),
        None => 0,
    }
}

/// Copy `src` into the leading elements of `dst`.
fn set(dst: &mut [Real], src: &[f64]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d = *s;
    }
}

fn set_f32(dst: &mut f32, src: &[f64]) {
    if let Some(&x) = src.first() {
        *dst = x as f32;
    }
}

/// A physics item changed: write it into the model's options (`MakePhysicsSection`'s data).
fn physics_changed(m: &mut Model, it: &Item) {
    let o = &mut m.opt;
    let v = nums(it);
    let first = v.first().copied().unwrap_or(0.0);
    let i = int(it);
    let bit = |flags: &mut i32, k: usize, on: bool| {
        *flags = if on {
            *flags | 1 << k
        } else {
            *flags & !(1 << k)
        }
    };
    match (it.kind, it.name.as_str()) {
        (ItemType::Select, "Integrator") => o.integrator = i,
        (ItemType::Select, "Cone") => o.cone = i,
        (ItemType::Select, "Jacobian") => o.jacobian = i,
        (ItemType::Select, "Solver") => o.solver = i,
        (ItemType::CheckInt, name) => {
            if let Some(k) = DISABLESTRING.iter().position(|&s| s == name) {
                bit(&mut o.disableflags, k, i != 0);
            } else if let Some(k) = ENABLESTRING.iter().position(|&s| s == name) {
                bit(&mut o.enableflags, k, i != 0);
            }
        }
        (ItemType::CheckByte, name) => {
            let group = name
                .strip_prefix("Act Group ")
                .and_then(|g| g.parse::<usize>().ok());
            if let Some(g) = group {
                bit(&mut o.disableactuator, g, i == 0);
            }
        }
        (_, "Timestep") => o.timestep = first,
        (_, "Iterations") => o.iterations = i,
        (_, "Tolerance") => o.tolerance = first,
        (_, "LS Iter") => o.ls_iterations = i,
        (_, "LS Tol") => o.ls_tolerance = first,
        (_, "Noslip Iter") => o.noslip_iterations = i,
        (_, "Noslip Tol") => o.noslip_tolerance = first,
        (_, "MPR Iter") => o.mpr_iterations = i,
        (_, "MPR Tol") => o.mpr_tolerance = first,
        (_, "API Rate") => o.apirate = first,
        (_, "SDF Iter") => o.sdf_iterations = i,
        (_, "SDF Init") => o.sdf_initpoints = i,
        (_, "Gravity") => set(&mut o.gravity, &v),
        (_, "Wind") => set(&mut o.wind, &v),
        (_, "Magnetic") => set(&mut o.magnetic, &v),
        (_, "Density") => o.density = first,
        (_, "Viscosity") => o.viscosity = first,
        (_, "Imp Ratio") => o.impratio = first,
        (_, "Margin") => o.o_margin = first,
        (_, "Sol Imp") => set(&mut o.o_solimp, &v),
        (_, "Sol Ref") => set(&mut o.o_solref, &v),
        (_, "Friction") => set(&mut o.o_friction, &v),
        _ => {}
    }
}

/// A visualization item changed: write it into the model's visual and statistic.
fn visualization_changed(m: &mut Model, it: &Item) {
    let v = nums(it);
    let first = v.first().copied().unwrap_or(0.0);
    let (vis, stat) = (&mut m.vis, &mut m.stat);
    let (h, g, mp, sc) = (
        &mut vis.headlight,
        &mut vis.global,
        &mut vis.map,
        &mut vis.scale,
    );
    let copy3 = |dst: &mut [f32; 3]| {
        for (d, s) in dst.iter_mut().zip(&v) {
            *d = *s as f32;
        }
    };
    match it.name.as_str() {
        "Active" => h.active = int(it),
        "Ambient" => copy3(&mut h.ambient),
        "Diffuse" => copy3(&mut h.diffuse),
        "Specular" => copy3(&mut h.specular),
        "Center" => set(&mut stat.center, &v),
        "Azimuth" => set_f32(&mut g.azimuth, &v),
        "Elevation" => set_f32(&mut g.elevation, &v),
        "Extent" => stat.extent = first,
        "Field of view" => set_f32(&mut g.fovy, &v),
        "Inertia" => g.ellipsoidinertia = int(it),
        "BVH active" => g.bvactive = int(it),
        "Stiffness" => set_f32(&mut mp.stiffness, &v),
        "Rot stiffness" => set_f32(&mut mp.stiffnessrot, &v),
        "Force" => set_f32(&mut mp.force, &v),
        "Torque" => set_f32(&mut mp.torque, &v),
        "Alpha" => set_f32(&mut mp.alpha, &v),
        "Fog start" => set_f32(&mut mp.fogstart, &v),
        "Fog end" => set_f32(&mut mp.fogend, &v),
        "Z near" => set_f32(&mut mp.znear, &v),
        "Z far" => set_f32(&mut mp.zfar, &v),
        "Haze" => set_f32(&mut mp.haze, &v),
        "Shadow clip" => set_f32(&mut mp.shadowclip, &v),
        "Shadow scale" => set_f32(&mut mp.shadowscale, &v),
        "All [meansize]" => stat.meansize = first,
        "Force width" => set_f32(&mut sc.forcewidth, &v),
        "Contact width" => set_f32(&mut sc.contactwidth, &v),
        "Contact height" => set_f32(&mut sc.contactheight, &v),
        "Connect" => set_f32(&mut sc.connect, &v),
        "Com" => set_f32(&mut sc.com, &v),
        "Camera" => set_f32(&mut sc.camera, &v),
        "Light" => set_f32(&mut sc.light, &v),
        "Select point" => set_f32(&mut sc.selectpoint, &v),
        "Joint length" => set_f32(&mut sc.jointlength, &v),
        "Joint width" => set_f32(&mut sc.jointwidth, &v),
        "Actuator length" => set_f32(&mut sc.actuatorlength, &v),
        "Actuator width" => set_f32(&mut sc.actuatorwidth, &v),
        "Frame length" => set_f32(&mut sc.framelength, &v),
        "Frame width" => set_f32(&mut sc.framewidth, &v),
        "Constraint" => set_f32(&mut sc.constraint, &v),
        "Slider-crank" => set_f32(&mut sc.slidercrank, &v),
        _ => {}
    }
}

/// A rendering check box or slider changed: the visualization flag, rendering flag, tree
/// depth or flex layer it shows. The flags are the check boxes after the "Model Elements"
/// and "OpenGL Effects" separators, in table order.
fn rendering_changed(
    vopt: &mut VisOption,
    scnflags: &mut [u8; rnd::N],
    sect: &ui::Section,
    i: usize,
) {
    let it = &sect.item[i];
    let after = |name: &str| {
        sect.item
            .iter()
            .position(|x| x.name == name && x.kind == ItemType::Separator)
    };
    match it.kind {
        ItemType::CheckByte => {
            let on = u8::from(int(it) != 0);
            let (model, effects) = (after("Model Elements"), after("OpenGL Effects"));
            match (model, effects) {
                (_, Some(e)) if i > e && i - e - 1 < rnd::N => scnflags[i - e - 1] = on,
                (Some(s), _) if i > s && i - s - 1 < flag::N => vopt.flags[i - s - 1] = on,
                _ => {}
            }
        }
        ItemType::SliderInt if it.name == "Tree depth" => vopt.bvh_depth = int(it),
        ItemType::SliderInt if it.name == "Flex layer" => vopt.flex_layer = int(it),
        ItemType::Select if it.name == "Label" => vopt.label = int(it),
        ItemType::Select if it.name == "Frame" => vopt.frame = int(it),
        _ => {}
    }
}

/// A group check box changed ("Geom 3", "Actuator 0", ...).
fn group_changed(vopt: &mut VisOption, it: &Item) {
    let Some((kind, g)) = it.name.rsplit_once(' ') else {
        return;
    };
    let Ok(g) = g.parse::<usize>() else {
        return;
    };
    let groups = match kind {
        "Geom" => &mut vopt.geomgroup,
        "Site" => &mut vopt.sitegroup,
        "Joint" => &mut vopt.jointgroup,
        "Tendon" => &mut vopt.tendongroup,
        "Actuator" => &mut vopt.actuatorgroup,
        "Flex" => &mut vopt.flexgroup,
        "Skin" => &mut vopt.skingroup,
        _ => return,
    };
    if let Some(x) = groups.get_mut(g) {
        *x = u8::from(int(it) != 0);
    }
}

/// The joint or actuator a slider of the right panel stands for: its name, or the
/// "joint 3" / "control 3" simulate shows for unnamed ones.
fn object_of(m: &Model, ty: i32, fallback: &str, name: &str) -> Option<usize> {
    mjrs_core::name::name2id(m, ty, name).or_else(|| name.strip_prefix(fallback)?.parse().ok())
}

/// The camera choice (free, tracking, the model's cameras) of a camera.
pub fn camera_choice(cam: &Camera) -> i32 {
    match cam.type_ {
        camera_type::FIXED => 2 + cam.fixedcamid,
        camera_type::TRACKING => 1,
        _ => 0,
    }
}

/// The camera as an MJCF element (`CopyCamera`): the middle of the eyes, right and up axes.
fn camera_text(scn: &crate::vis::Scene) -> String {
    let (c0, c1) = (&scn.camera[0], &scn.camera[1]);
    let f = c0.forward.map(f64::from);
    let u = c0.up.map(f64::from);
    let right = [
        f[1] * u[2] - f[2] * u[1],
        f[2] * u[0] - f[0] * u[2],
        f[0] * u[1] - f[1] * u[0],
    ];
    let pos: [f64; 3] =
        core::array::from_fn(|k| (f64::from(c0.pos[k]) + f64::from(c1.pos[k])) / 2.0);
    format!(
        "<camera pos=\"{:.3} {:.3} {:.3}\" xyaxes=\"{:.3} {:.3} {:.3} {:.3} {:.3} {:.3}\"/>",
        pos[0], pos[1], pos[2], right[0], right[1], right[2], u[0], u[1], u[2]
    )
}

impl App<'_, '_, '_, '_> {
    /// The definitions of both panels from the scene state's model and data and the
    /// viewer's settings, with the panels' current open states.
    pub(super) fn panel_defs(&mut self) -> (Vec<Def>, Vec<Def>) {
        self.settings.camera = camera_choice(&self.cam);
        let old0 = old_states::<4>(&self.ui0, simulate::SECT_PHYSICS);
        let old1 = old_states::<2>(&self.ui1, 0);
        let (m, d) = self.state.views();
        let left = simulate::left_panel(&m, &self.vopt, &self.scn.flags, &self.settings, old0);
        let right = simulate::right_panel(&m, &d, &self.vopt, old1);
        (left, right)
    }

    /// Bring both panels to the state's values (rebuilding sections whose items changed)
    /// and the watch to its field.
    pub(super) fn refresh_panels(&mut self) -> Result<(), String> {
        let (left, right) = self.panel_defs();
        let nhistory = self.nhistory;
        if sync_ui(&mut self.ui0, &left).map_err(|e| e.to_string())? {
            set_slider_ranges(&mut self.ui0, self.nkey, nhistory);
            self.modify[0] = true;
        }
        if sync_ui(&mut self.ui1, &right).map_err(|e| e.to_string())? {
            self.modify[1] = true;
        }
        if self.ui0_enable
            && self
                .ui0
                .sect
                .get(simulate::SECT_WATCH)
                .is_some_and(|s| s.state != 0)
        {
            let text = watch_text(
                &self.state.data(),
                &self.settings.field,
                self.settings.index,
            );
            let watch = &mut self.ui0.sect[simulate::SECT_WATCH];
            if let Some(value) = watch.item.get_mut(2) {
                if value.multi.first() != Some(&text) {
                    value.multi = vec![text];
                    self.ui0.pending.push((simulate::SECT_WATCH as i32, -1));
                }
            }
        }
        Ok(())
    }

    /// An item of the left panel changed or was pressed (simulate's `UiEvent` for UI 0).
    pub(super) fn left_changed(&mut self, s: &mut Sim, (sect, i): ItemId) {
        let it = self.ui0.sect[sect].item[i].clone();
        match sect {
            simulate::SECT_FILE => self.file_pressed(s, i),
            simulate::SECT_OPTION => self.option_changed(&it),
            simulate::SECT_SIMULATION => self.simulation_changed(s, &it, i),
            simulate::SECT_WATCH => match it.name.as_str() {
                "Field" => {
                    if let Some(Value::Text(t)) = &it.value {
                        self.settings.field.clone_from(t);
                    }
                }
                "Index" => self.settings.index = int(&it),
                _ => {}
            },
            simulate::SECT_PHYSICS => physics_changed(s.m, &it),
            simulate::SECT_RENDERING => self.rendering_changed(sect, i),
            simulate::SECT_VISUALIZATION => {
                if it.name == "Align" {
                    self.pending.align = true;
                } else {
                    visualization_changed(s.m, &it);
                }
            }
            simulate::SECT_GROUP => group_changed(&mut self.vopt, &it),
            _ => {}
        }
    }

    fn file_pressed(&mut self, s: &mut Sim, i: usize) {
        match i {
            0 => self.pending.save_xml = true,
            1 => self.pending.save_mjb = true,
            2 => self.pending.print_model = true,
            3 => self.pending.print_data = true,
            4 => s.exit = true,
            5 => self.pending.screenshot = true,
            _ => {}
        }
    }

    fn option_changed(&mut self, it: &Item) {
        let v = int(it);
        let st = &mut self.settings;
        match it.name.as_str() {
            "Help" => st.help = v,
            "Info" => st.info = v,
            "Profiler" => st.profiler = v,
            "Sensor" => st.sensor = v,
            "Pause update" => st.pause_update = v,
            "Fullscreen" => {
                st.fullscreen = v;
                if let Some(w) = &self.win {
                    let full = (v != 0).then_some(winit::window::Fullscreen::Borderless(None));
                    w.window().set_fullscreen(full);
                }
            }
            "Vertical Sync" => {
                st.vsync = v;
                if let Some(w) = &self.win {
                    w.set_vsync(v != 0);
                }
            }
            "Busy Wait" => st.busywait = v,
            "Spacing" => st.spacing = v,
            "Color" => st.color = v,
            "Font" => {
                st.font = v;
                self.font_changed = true;
            }
            _ => {}
        }
        for u in [&mut self.ui0, &mut self.ui1] {
            u.spacing = ui::theme_spacing(self.settings.spacing);
            u.color = ui::theme_color(self.settings.color);
        }
        self.modify = [true, true];
    }

    fn simulation_changed(&mut self, s: &mut Sim, it: &Item, i: usize) {
        match i {
            0 => {
                s.run = int(it) == 1;
                if s.run {
                    self.settings.scrub_index = 0;
                }
            }
            1 => self.pending.reset = true,
            2 => self.pending.reload = true,
            3 => self.pending.align = true,
            4 => self.pending.copy_pose = true,
            5 | 6 => {
                self.settings.key = int(&self.ui0.sect[simulate::SECT_SIMULATION].item[5]);
                self.pending.load_key = true;
            }
            7 => self.pending.save_key = true,
            8 => s.noise_std = nums(it).first().copied().unwrap_or(0.0),
            9 => s.noise_rate = nums(it).first().copied().unwrap_or(0.0),
            11 => {
                s.run = false;
                self.settings.scrub_index = int(it);
                self.pending.load_history = true;
            }
            _ => {}
        }
    }

    fn rendering_changed(&mut self, sect: usize, i: usize) {
        let it = &self.ui0.sect[sect].item[i];
        match (it.kind, it.name.as_str()) {
            (ItemType::Select, "Camera") => {
                self.settings.camera = int(it);
                self.set_camera_choice();
            }
            (ItemType::Button, "Copy camera") => {
                self.hud.message = camera_text(&self.scn);
                println!("{}", self.hud.message);
            }
            _ => rendering_changed(&mut self.vopt, &mut self.scn.flags, &self.ui0.sect[sect], i),
        }
    }

    /// Point the camera at the choice in the rendering section: free, tracking the selected
    /// body (free when none is), or a model camera.
    fn set_camera_choice(&mut self) {
        match self.settings.camera {
            0 => self.cam.type_ = camera_type::FREE,
            1 if self.pert.select > 0 => {
                self.cam.type_ = camera_type::TRACKING;
                self.cam.trackbodyid = self.pert.select;
                self.cam.fixedcamid = -1;
            }
            1 => {
                self.cam.type_ = camera_type::FREE;
                self.settings.camera = 0;
            }
            c => {
                self.cam.type_ = camera_type::FIXED;
                self.cam.fixedcamid = c - 2;
            }
        }
    }

    /// An item of the right panel changed: "Clear all", a joint or a control slider.
    pub(super) fn right_changed(&mut self, s: &mut Sim, (sect, i): ItemId) {
        let it = &self.ui1.sect[sect].item[i];
        let v = nums(it).first().copied().unwrap_or(0.0);
        match sect {
            simulate::SECT_JOINT => {
                if let Some(j) = object_of(s.m, OBJ_JOINT, "joint ", &it.name) {
                    let adr = s.m.jnt_qposadr[j] as usize;
                    s.d.qpos[adr] = v;
                }
            }
            simulate::SECT_CONTROL if i == 0 => self.pending.zero_ctrl = true,
            simulate::SECT_CONTROL => {
                if let Some(a) = object_of(s.m, OBJ_ACTUATOR, "control ", &it.name) {
                    s.d.ctrl[a] = v;
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defs(names: &[&str], value: i32) -> Vec<Def> {
        let mut v = vec![Def::section("S", 1, "")];
        for n in names {
            v.push(Def::item(
                ItemType::CheckInt,
                n,
                2,
                Some(Value::Int(value)),
                "",
            ));
        }
        v
    }

    #[test]
    fn values_follow_and_new_items_rebuild() {
        let mut u = Ui::new(ui::theme_spacing(0), ui::theme_color(0));
        u.add(&defs(&["a", "b"], 0)).unwrap();
        u.sect[0].state = 0;
        assert!(!sync_ui(&mut u, &defs(&["a", "b"], 1)).unwrap());
        assert_eq!(u.sect[0].item[1].value, Some(Value::Int(1)));
        assert_eq!(u.pending, vec![(0, -1)]);
        assert!(sync_ui(&mut u, &defs(&["a", "b", "c"], 1)).unwrap());
        assert_eq!(u.sect[0].item.len(), 3);
        // the user's open state survives
        assert_eq!(u.sect[0].state, 0);
    }

    #[test]
    fn flags_are_found_after_their_separators() {
        let mut u = Ui::new(ui::theme_spacing(0), ui::theme_color(0));
        let mut vopt = VisOption::default();
        let mut flags = rnd::DEFAULT;
        let mut d = vec![Def::section("Rendering", 1, "")];
        d.push(Def::item(
            ItemType::Separator,
            "Model Elements",
            1,
            None,
            "",
        ));
        for (name, _) in flag::STRINGS {
            d.push(Def::item(
                ItemType::CheckByte,
                name,
                2,
                Some(Value::Byte(0)),
                "",
            ));
        }
        d.push(Def::item(
            ItemType::Separator,
            "OpenGL Effects",
            1,
            None,
            "",
        ));
        for (name, _) in rnd::STRINGS {
            d.push(Def::item(
                ItemType::CheckByte,
                name,
                2,
                Some(Value::Byte(1)),
                "",
            ));
        }
        u.add(&d).unwrap();
        let wire = 2 + flag::N + rnd::WIREFRAME;
        rendering_changed(&mut vopt, &mut flags, &u.sect[0], wire);
        assert_eq!(flags[rnd::WIREFRAME], 1);
        let contact = 1 + flag::CONTACTPOINT;
        u.sect[0].item[contact].value = Some(Value::Byte(1));
        rendering_changed(&mut vopt, &mut flags, &u.sect[0], contact);
        assert_eq!(vopt.flags[flag::CONTACTPOINT], 1);
    }
}
