//! The definitions of MuJoCo `simulate`'s panels (3.1.6's `simulate.cc`): the left panel's
//! file, option, simulation, watch, physics, rendering, visualization and group sections and
//! the right panel's joint and control sections, with the values they start from.

use super::model::{Def, ItemType, Value};
use super::{MAXUIEDIT, MAXUIITEM, MAXUIMULTI, MAXUITEXT};
use crate::vis::{flag, rnd, VisOption};
use mjrs_core::print::FloatFormat;
use mjrs_core::types::{JNT_HINGE, JNT_SLIDE, NGROUP};
use mjrs_core::{Data, Model, Real};

/// Section indices of the left panel.
pub const SECT_FILE: usize = 0;
/// Option section.
pub const SECT_OPTION: usize = 1;
/// Simulation section.
pub const SECT_SIMULATION: usize = 2;
/// Watch section.
pub const SECT_WATCH: usize = 3;
/// Physics section.
pub const SECT_PHYSICS: usize = 4;
/// Rendering section.
pub const SECT_RENDERING: usize = 5;
/// Visualization section.
pub const SECT_VISUALIZATION: usize = 6;
/// Group enable section.
pub const SECT_GROUP: usize = 7;
/// Joint section of the right panel.
pub const SECT_JOINT: usize = 0;
/// Control section of the right panel.
pub const SECT_CONTROL: usize = 1;

/// `simulate`'s own settings that its panels show (its fields of the same names).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Settings {
    /// Help overlay.
    pub help: i32,
    /// Info overlay.
    pub info: i32,
    /// Profiler.
    pub profiler: i32,
    /// Sensor figure.
    pub sensor: i32,
    /// Pause the panels' updates.
    pub pause_update: i32,
    /// Full screen.
    pub fullscreen: i32,
    /// Vertical sync.
    pub vsync: i32,
    /// Busy wait.
    pub busywait: i32,
    /// Spacing theme.
    pub spacing: i32,
    /// Colour theme.
    pub color: i32,
    /// Font scale index (percent / 50 - 1).
    pub font: i32,
    /// 1 running, 0 paused.
    pub run: i32,
    /// Keyframe.
    pub key: i32,
    /// Control noise scale.
    pub ctrl_noise_std: f64,
    /// Control noise rate.
    pub ctrl_noise_rate: f64,
    /// History index.
    pub scrub_index: i32,
    /// Watched field.
    pub field: String,
    /// Watched index.
    pub index: i32,
    /// Camera choice: free, tracking, then the model's cameras.
    pub camera: i32,
    /// Actuator groups enabled.
    pub enableactuator: [u8; 6],
}

/// Disable flags (`mjDISABLESTRING`).
pub(crate) const DISABLESTRING: [&str; 15] = [
    "Constraint",
    "Equality",
    "Frictionloss",
    "Limit",
    "Contact",
    "Passive",
    "Gravity",
    "Clampctrl",
    "Warmstart",
    "Filterparent",
    "Actuation",
    "Refsafe",
    "Sensor",
    "Midphase",
    "Eulerdamp",
];

/// Enable flags (`mjENABLESTRING`).
pub(crate) const ENABLESTRING: [&str; 6] = [
    "Override",
    "Energy",
    "Fwdinv",
    "InvDiscrete",
    "MultiCCD",
    "Island",
];

fn sect(name: &str, state: i32, other: &str) -> Def {
    Def::section(name, state, other)
}

fn item(kind: ItemType, name: &str, state: i32, value: Option<Value>, other: &str) -> Def {
    Def::item(kind, name, state, value, other)
}

fn int(v: i32) -> Option<Value> {
    Some(Value::Int(v))
}

fn byte(v: u8) -> Option<Value> {
    Some(Value::Byte(v))
}

fn nums(v: &[Real]) -> Option<Value> {
    let mut a = [0.0; MAXUIEDIT];
    for (d, s) in a.iter_mut().zip(v) {
        *d = *s;
    }
    Some(Value::Nums(a))
}

fn floats(v: &[f32]) -> Option<Value> {
    let mut a = [0.0; MAXUIEDIT];
    for (d, s) in a.iter_mut().zip(v) {
        *d = *s;
    }
    Some(Value::Floats(a))
}

fn ints(v: i32) -> Option<Value> {
    let mut a = [0; MAXUIEDIT];
    a[0] = v;
    Some(Value::Ints(a))
}

/// `%.4g` of a number, as simulate prints slider ranges.
fn g4(x: f64) -> String {
    let mut s = String::new();
    // writing to a String cannot fail
    let _ = FloatFormat::parse("%.4g")
        .unwrap_or(FloatFormat::DEFAULT)
        .write(&mut s, x);
    s
}

/// The sections that do not depend on a model: file, option, simulation, watch.
pub fn standard_sections(s: &Settings) -> Vec<Def> {
    use ItemType::*;
    let button = |name: &str, state, other: &str| item(Button, name, state, None, other);
    let check = |name: &str, v, other: &str, state| item(CheckInt, name, state, int(v), other);
    vec![
        sect("File", 1, "AF"),
        button("Save xml", 2, ""),
        button("Save mjb", 2, ""),
        button("Print model", 2, "CM"),
        button("Print data", 2, "CD"),
        button("Quit", 1, "CQ"),
        button("Screenshot", 2, "CP"),
        sect("Option", 1, "AO"),
        check("Help", s.help, " #290", 2),
        check("Info", s.info, " #291", 2),
        check("Profiler", s.profiler, " #292", 2),
        check("Sensor", s.sensor, " #293", 2),
        check("Pause update", s.pause_update, "", 2),
        check("Fullscreen", s.fullscreen, " #294", 1),
        check("Vertical Sync", s.vsync, "", 1),
        check("Busy Wait", s.busywait, "", 1),
        item(Select, "Spacing", 1, int(s.spacing), "Tight\nWide"),
        item(
            Select,
            "Color",
            1,
            int(s.color),
            "Default\nOrange\nWhite\nBlack",
        ),
        item(
            Select,
            "Font",
            1,
            int(s.font),
            "50 %\n100 %\n150 %\n200 %\n250 %\n300 %",
        ),
        sect("Simulation", 1, "AS"),
        item(Radio, "", 5, int(s.run), "Pause\nRun"),
        button("Reset", 2, " #259"),
        button("Reload", 5, "CL"),
        button("Align", 2, "CA"),
        button("Copy pose", 2, "CC"),
        item(SliderInt, "Key", 3, int(s.key), "0 0"),
        button("Load key", 3, ""),
        button("Save key", 3, ""),
        item(
            SliderNum,
            "Noise scale",
            5,
            Some(Value::Num(s.ctrl_noise_std)),
            "0 2",
        ),
        item(
            SliderNum,
            "Noise rate",
            5,
            Some(Value::Num(s.ctrl_noise_rate)),
            "0 2",
        ),
        item(Separator, "History", 1, None, ""),
        item(SliderInt, "", 5, int(s.scrub_index), "0 0"),
        sect("Watch", 0, "AW"),
        item(
            EditTxt,
            "Field",
            2,
            Some(Value::Text(s.field.clone())),
            "qpos",
        ),
        item(EditInt, "Index", 2, ints(s.index), "1"),
        item(Static, "Value", 2, None, " "),
    ]
}

/// The physics section (`MakePhysicsSection`) on the model's options.
pub fn physics_section(m: &Model, s: &Settings, oldstate: i32) -> Vec<Def> {
    use ItemType::*;
    let o = &m.opt;
    let sep = |name: &str| item(Separator, name, 1, None, "");
    let num = |name: &str, v: &[Real], other: &str| item(EditNum, name, 2, nums(v), other);
    let eint = |name: &str, v: i32, other: &str| item(EditInt, name, 2, ints(v), other);
    let mut v = vec![
        sect("Physics", oldstate, "AP"),
        item(
            Select,
            "Integrator",
            2,
            int(o.integrator),
            "Euler\nRK4\nimplicit\nimplicitfast",
        ),
        item(Select, "Cone", 2, int(o.cone), "Pyramidal\nElliptic"),
        item(
            Select,
            "Jacobian",
            2,
            int(o.jacobian),
            "Dense\nSparse\nAuto",
        ),
        item(Select, "Solver", 2, int(o.solver), "PGS\nCG\nNewton"),
        sep("Algorithmic Parameters"),
        num("Timestep", &[o.timestep], "1 0 1"),
        eint("Iterations", o.iterations, "1 0 1000"),
        num("Tolerance", &[o.tolerance], "1 0 1"),
        eint("LS Iter", o.ls_iterations, "1 0 100"),
        num("LS Tol", &[o.ls_tolerance], "1 0 0.1"),
        eint("Noslip Iter", o.noslip_iterations, "1 0 1000"),
        num("Noslip Tol", &[o.noslip_tolerance], "1 0 1"),
        eint("MPR Iter", o.mpr_iterations, "1 0 1000"),
        num("MPR Tol", &[o.mpr_tolerance], "1 0 1"),
        num("API Rate", &[o.apirate], "1 0 1000"),
        eint("SDF Iter", o.sdf_iterations, "1 1 20"),
        eint("SDF Init", o.sdf_initpoints, "1 1 100"),
        sep("Physical Parameters"),
        num("Gravity", &o.gravity, "3"),
        num("Wind", &o.wind, "3"),
        num("Magnetic", &o.magnetic, "3"),
        num("Density", &[o.density], "1"),
        num("Viscosity", &[o.viscosity], "1"),
        num("Imp Ratio", &[o.impratio], "1"),
        sep("Disable Flags"),
    ];
    let bit = |flags: i32, k: usize| int(i32::from(flags & (1 << k) != 0));
    for (k, name) in DISABLESTRING.iter().enumerate() {
        v.push(item(CheckInt, name, 2, bit(o.disableflags, k), ""));
    }
    v.push(sep("Enable Flags"));
    for (k, name) in ENABLESTRING.iter().enumerate() {
        v.push(item(CheckInt, name, 2, bit(o.enableflags, k), ""));
    }
    v.extend([
        sep("Contact Override"),
        num("Margin", &[o.o_margin], "1"),
        num("Sol Imp", &o.o_solimp, "5"),
        num("Sol Ref", &o.o_solref, "2"),
        num("Friction", &o.o_friction, "5"),
        sep("Actuator Group Enable"),
    ]);
    for (k, &on) in s.enableactuator.iter().enumerate() {
        v.push(item(CheckByte, &format!("Act Group {k}"), 2, byte(on), ""));
    }
    v
}

/// A check box with a shortcut letter of MuJoCo's flag tables (" X", or none).
fn flag_check(name: &str, key: &str, on: u8) -> Def {
    let other = if key.is_empty() {
        String::new()
    } else {
        format!(" {key}")
    };
    item(ItemType::CheckByte, name, 2, byte(on), &other)
}

/// The rendering section (`MakeRenderingSection`): cameras of the model in the camera list.
pub fn rendering_section(
    m: &Model,
    vopt: &VisOption,
    scnflags: &[u8; rnd::N],
    s: &Settings,
    oldstate: i32,
) -> Vec<Def> {
    use ItemType::*;
    let mut cameras = String::from("Free\nTracking");
    for i in 0..m.ncam.min(MAXUIMULTI - 2) {
        let name = m.name_at(m.name_camadr[i]);
        let add = if name.is_empty() {
            format!("\nCamera {i}")
        } else {
            format!("\n{name}")
        };
        if add.len() + cameras.len() >= MAXUITEXT - 1 {
            break;
        }
        cameras.push_str(&add);
    }
    let labels = "None\nBody\nJoint\nGeom\nSite\nCamera\nLight\nTendon\nActuator\nConstraint\n\
                  Flex\nSkin\nSelection\nSel Pnt\nContact\nForce\nIsland";
    let frames = "None\nBody\nGeom\nSite\nCamera\nLight\nContact\nWorld";
    let mut v = vec![
        sect("Rendering", oldstate, "AR"),
        item(Select, "Camera", 2, int(s.camera), &cameras),
        item(Select, "Label", 2, int(vopt.label), labels),
        item(Select, "Frame", 2, int(vopt.frame), frames),
        item(Button, "Copy camera", 2, None, ""),
        item(Separator, "Model Elements", 1, None, ""),
    ];
    for (k, (name, key)) in flag::STRINGS.iter().enumerate() {
        v.push(flag_check(name, key, vopt.flags[k]));
    }
    v.push(item(
        SliderInt,
        "Tree depth",
        2,
        int(vopt.bvh_depth),
        "0 20",
    ));
    v.push(item(
        SliderInt,
        "Flex layer",
        2,
        int(vopt.flex_layer),
        "0 10",
    ));
    v.push(item(Separator, "OpenGL Effects", 1, None, ""));
    for (k, (name, key)) in rnd::STRINGS.iter().enumerate() {
        v.push(flag_check(name, key, scnflags[k]));
    }
    v
}

/// The visualization section (`MakeVisualizationSection`) on the model's visual and statistic.
pub fn visualization_section(m: &Model, oldstate: i32) -> Vec<Def> {
    use ItemType::*;
    let (vis, stat) = (&m.vis, &m.stat);
    let sep = |name: &str| item(Separator, name, 1, None, "");
    let f1 = |name: &str, x: f32| item(EditFloat, name, 2, floats(&[x]), "1");
    let (h, g, mp, sc) = (&vis.headlight, &vis.global, &vis.map, &vis.scale);
    vec![
        sect("Visualization", oldstate, "AV"),
        sep("Headlight"),
        item(Radio, "Active", 5, int(h.active), "Off\nOn"),
        item(EditFloat, "Ambient", 2, floats(&h.ambient), "3"),
        item(EditFloat, "Diffuse", 2, floats(&h.diffuse), "3"),
        item(EditFloat, "Specular", 2, floats(&h.specular), "3"),
        sep("Initial Free Camera"),
        item(EditNum, "Center", 2, nums(&stat.center), "3"),
        f1("Azimuth", g.azimuth),
        f1("Elevation", g.elevation),
        item(Button, "Align", 2, None, "CA"),
        sep("Global"),
        item(EditNum, "Extent", 2, nums(&[stat.extent]), "1"),
        f1("Field of view", g.fovy),
        item(
            Radio,
            "Inertia",
            5,
            int(g.ellipsoidinertia),
            "Box\nEllipsoid",
        ),
        item(Radio, "BVH active", 5, int(g.bvactive), "False\nTrue"),
        sep("Map"),
        f1("Stiffness", mp.stiffness),
        f1("Rot stiffness", mp.stiffnessrot),
        f1("Force", mp.force),
        f1("Torque", mp.torque),
        f1("Alpha", mp.alpha),
        f1("Fog start", mp.fogstart),
        f1("Fog end", mp.fogend),
        f1("Z near", mp.znear),
        f1("Z far", mp.zfar),
        f1("Haze", mp.haze),
        f1("Shadow clip", mp.shadowclip),
        f1("Shadow scale", mp.shadowscale),
        sep("Scale"),
        item(EditNum, "All [meansize]", 2, nums(&[stat.meansize]), "1"),
        f1("Force width", sc.forcewidth),
        f1("Contact width", sc.contactwidth),
        f1("Contact height", sc.contactheight),
        f1("Connect", sc.connect),
        f1("Com", sc.com),
        f1("Camera", sc.camera),
        f1("Light", sc.light),
        f1("Select point", sc.selectpoint),
        f1("Joint length", sc.jointlength),
        f1("Joint width", sc.jointwidth),
        f1("Actuator length", sc.actuatorlength),
        f1("Actuator width", sc.actuatorwidth),
        f1("Frame length", sc.framelength),
        f1("Frame width", sc.framewidth),
        f1("Constraint", sc.constraint),
        f1("Slider-crank", sc.slidercrank),
    ]
}

/// The group enable section (`MakeGroupSection`).
pub fn group_section(vopt: &VisOption, oldstate: i32) -> Vec<Def> {
    let kinds: [(&str, &str, &[u8; NGROUP]); 7] = [
        ("Geom groups", "Geom", &vopt.geomgroup),
        ("Site groups", "Site", &vopt.sitegroup),
        ("Joint groups", "Joint", &vopt.jointgroup),
        ("Tendon groups", "Tendon", &vopt.tendongroup),
        ("Actuator groups", "Actuator", &vopt.actuatorgroup),
        ("Flex groups", "Flex", &vopt.flexgroup),
        ("Skin groups", "Skin", &vopt.skingroup),
    ];
    let mut v = vec![sect("Group enable", oldstate, "AG")];
    for (k, (head, name, groups)) in kinds.iter().enumerate() {
        v.push(item(ItemType::Separator, head, 1, None, ""));
        for (i, &on) in groups.iter().enumerate().take(6) {
            let other = match k {
                0 => format!(" {i}"),
                1 => format!("S{i}"),
                _ => String::new(),
            };
            v.push(item(
                ItemType::CheckByte,
                &format!("{name} {i}"),
                2,
                byte(on),
                &other,
            ));
        }
    }
    v
}

/// The whole left panel as `simulate` makes it after loading `m` (`MakeUiSections` for UI
/// 0): `oldstate` are the open states of the model's sections (physics, rendering,
/// visualization, group) kept from the previous model.
pub fn left_panel(
    m: &Model,
    vopt: &VisOption,
    scnflags: &[u8; rnd::N],
    s: &Settings,
    oldstate: [i32; 4],
) -> Vec<Def> {
    let mut v = standard_sections(s);
    v.extend(physics_section(m, s, oldstate[0]));
    v.extend(rendering_section(m, vopt, scnflags, s, oldstate[1]));
    v.extend(visualization_section(m, oldstate[2]));
    v.extend(group_section(vopt, oldstate[3]));
    v
}

/// The group of an object, clamped to the groups the options have.
fn group_on(groups: &[u8; NGROUP], group: i32) -> bool {
    groups[group.clamp(0, NGROUP as i32 - 1) as usize] != 0
}

/// The joint section (`MakeJointSection`): a slider per hinge and slide joint of an enabled
/// joint group, on its position.
pub fn joint_section(m: &Model, d: &Data, vopt: &VisOption, oldstate: i32) -> Vec<Def> {
    let mut v = vec![sect("Joint", oldstate, "AJ")];
    for i in 0..m.njnt {
        let ty = m.jnt_type[i];
        if v.len() > MAXUIITEM || (ty != JNT_HINGE && ty != JNT_SLIDE) {
            continue;
        }
        if !group_on(&vopt.jointgroup, m.jnt_group[i]) {
            continue;
        }
        let name = m.name_at(m.name_jntadr[i]);
        let name = if name.is_empty() {
            format!("joint {i}")
        } else {
            name.to_string()
        };
        let range = if m.jnt_limited[i] != 0 {
            format!("{} {}", g4(m.jnt_range[2 * i]), g4(m.jnt_range[2 * i + 1]))
        } else if ty == JNT_SLIDE {
            "-1 1".into()
        } else {
            "-3.1416 3.1416".into()
        };
        let q = d.qpos[m.jnt_qposadr[i] as usize];
        v.push(item(
            ItemType::SliderNum,
            &name,
            4,
            Some(Value::Num(q)),
            &range,
        ));
    }
    v
}

/// The control section (`MakeControlSection`): "Clear all" and a slider per actuator of an
/// enabled group, inactive when its group is disabled in the model's options.
pub fn control_section(m: &Model, d: &Data, vopt: &VisOption, oldstate: i32) -> Vec<Def> {
    let mut v = vec![
        sect("Control", oldstate, "AC"),
        item(ItemType::Button, "Clear all", 2, None, ""),
    ];
    for i in 0..m.nu {
        let group = m.actuator_group[i];
        if v.len() > MAXUIITEM || !group_on(&vopt.actuatorgroup, group) {
            continue;
        }
        let off = (0..=30).contains(&group) && m.opt.disableactuator & (1 << group) != 0;
        let name = m.name_at(m.name_actuatoradr[i]);
        let name = if name.is_empty() {
            format!("control {i}")
        } else {
            name.to_string()
        };
        let range = if m.actuator_ctrllimited[i] != 0 {
            let r = &m.actuator_ctrlrange[2 * i..2 * i + 2];
            format!("{} {}", g4(r[0]), g4(r[1]))
        } else {
            "-1 1".into()
        };
        let state = if off { 0 } else { 2 };
        v.push(item(
            ItemType::SliderNum,
            &name,
            state,
            Some(Value::Num(d.ctrl[i])),
            &range,
        ));
    }
    v
}

/// The whole right panel (`MakeUiSections` for UI 1).
pub fn right_panel(m: &Model, d: &Data, vopt: &VisOption, oldstate: [i32; 2]) -> Vec<Def> {
    let mut v = joint_section(m, d, vopt, oldstate[0]);
    v.extend(control_section(m, d, vopt, oldstate[1]));
    v
}
