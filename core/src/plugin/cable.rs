//! `mujoco.elasticity.cable`, MuJoCo 3.1.6's elastic rod: bending and twisting torques between
//! consecutive bodies of a chain, from the difference of their relative orientation and the one
//! they have in the reference configuration (Cosserat rod, discrete curvature per segment).
//!
//! The bodies of an instance are the bodies naming it, which must be consecutive (a cable of
//! `<composite type="cable">` is). Body `b` of the chain (after the first) is rotated against
//! body `b - 1` by its last joint, a ball (or the rotation of a free joint). Its curvature is
//! the rotation vector of that relative orientation (`body_quat` times the joint's quaternion);
//! the torque on the segment is `-k * (curvature - reference curvature) / length`, with the
//! twist stiffness `k = J * twist` about the local x axis and bending stiffnesses `Iy * bend`,
//! `Iz * bend` about y and z, from the cross-section of the body's first geom (circle for a
//! capsule or cylinder, rectangle for a box; other shapes are rigid-free, no torque). Each body
//! gets the torque of its own segment, pulled back into its frame, minus that of the next one.
//!
//! MuJoCo computes the per-body constants once, when `mjData` is made, and keeps them in a heap
//! object; mjrs has no heap per `Data`, so they are derived from the model on every call, with
//! the same arithmetic: the reference configuration is `mj_kinematics` at `qpos0` with the mocap
//! orientations zeroed (then normalized to the identity) and the mocap positions at zero (MuJoCo
//! leaves them as the fresh buffer has them). `nstate` is 0, as in MuJoCo.
//!
//! Configuration: `twist` and `bend` (numbers, white space ignored, as MuJoCo's `CheckAttr`;
//! unset reads as 0), `flat` (`true`: the reference curvature is zero, the cable's rest shape is
//! straight), `vmax` (colour scale of the stress shown by [`Plugin::visualize`]; 0 shows none).

use super::{
    instance_bodies, is_number_without_spaces, plugin_config, register_plugin, strtod, Plugin,
    PluginError, PluginScene, PLUGIN_PASSIVE,
};
use crate::data::Data;
use crate::error::StepError;
use crate::math::quat::{mul_quat, neg_quat, quat2mat, quat2vel, rot_vec_quat, sub_quat};
use crate::math::scalar::pow;
use crate::math::vec::{add3, add_to_scl3, dist3, norm3, normalize4, scl3};
use crate::model::Model;
use crate::real::{Real, PI};
use crate::smooth::{pose_from_parent, ParentFrame};
use crate::support::{apply_torque, v3, v4};
use crate::types::{GEOM_BOX, GEOM_CAPSULE, GEOM_CYLINDER, JNT_BALL, JNT_FREE};

/// The plugin object registered by [`register`].
pub static CABLE: Cable = Cable;

/// Registers `mujoco.elasticity.cable` at its fixed slot.
pub fn register() {
    // the only refusal is a different plugin already holding the slot, which then stays
    let _ = register_plugin(&CABLE);
}

/// `mujoco.elasticity.cable` (stateless: everything is derived from the Model).
pub struct Cable;

/// An instance's configuration, read as MuJoCo's constructor reads it (`strtod`).
#[derive(Clone, Copy, Debug)]
struct Config {
    /// Shear modulus, `twist`.
    twist: Real,
    /// Young's modulus, `bend`.
    bend: Real,
    /// `flat="true"`: zero reference curvature.
    flat: bool,
    /// Top of the stress colour scale, `vmax` (0: no colours).
    vmax: Real,
}

impl Config {
    fn from_model(m: &Model, instance: usize) -> Self {
        let text = |key| plugin_config(m, instance, key).unwrap_or("");
        Config {
            twist: strtod(text("twist")) as Real,
            bend: strtod(text("bend")) as Real,
            flat: text("flat") == "true",
            vmax: strtod(text("vmax")) as Real,
        }
    }
}

/// `qpos` address of the orientation of body `i` against its parent, as MuJoCo finds it: the
/// last three dofs of the body. `None` when the body has no joint.
fn orientation_adr(m: &Model, i: usize) -> Option<usize> {
    let jnt = usize::try_from(m.body_jntadr[i]).ok()?;
    let adr = i64::from(m.jnt_qposadr[jnt]) + i64::from(m.body_dofnum[i]) - 3;
    usize::try_from(adr).ok()
}

/// Whether [`orientation_adr`] of body `i` is the quaternion of its last joint, a ball joint or
/// a free joint; MuJoCo reads any four numbers there, which mjrs refuses unless they are one.
fn has_orientation(m: &Model, i: usize) -> bool {
    let (Some(adr), Ok(num)) = (orientation_adr(m, i), usize::try_from(m.body_jntnum[i])) else {
        return false;
    };
    if num == 0 {
        return false;
    }
    let last = m.body_jntadr[i] as usize + num - 1;
    let Some(&ty) = m.jnt_type.get(last) else {
        return false;
    };
    let quat = m.jnt_qposadr[last] as usize + if ty == JNT_FREE { 3 } else { 0 };
    (ty == JNT_BALL || ty == JNT_FREE) && adr == quat && quat + 4 <= m.nq
}

/// The four `qpos` values at `adr`.
fn quat_at(qpos: &[Real], adr: usize) -> [Real; 4] {
    [qpos[adr], qpos[adr + 1], qpos[adr + 2], qpos[adr + 3]]
}

/// Orientation of body `i` against the previous body: `body_quat` times the joint's quaternion.
fn relative_orientation(m: &Model, qpos: &[Real], i: usize, adr: usize) -> [Real; 4] {
    mul_quat(&v4(&m.body_quat)[i], &quat_at(qpos, adr))
}

/// Torsion constant and second moments of area (`J`, `Iy`, `Iz`) of the cross-section of the
/// body's first geom: a circle of the geom's radius, or the rectangle of a box's y and z sizes.
fn section(m: &Model, geom: usize) -> [Real; 3] {
    let size = &v3(&m.geom_size)[geom];
    match m.geom_type[geom] {
        GEOM_CYLINDER | GEOM_CAPSULE => {
            let r4 = pow(size[0], 4.0);
            [PI * r4 / 2.0, PI * r4 / 4.0, PI * r4 / 4.0]
        }
        GEOM_BOX => {
            let (h, w) = (size[1], size[2]);
            // std::max and std::min
            let a = if h < w { w } else { h };
            let b = if w < h { w } else { h };
            // torsion constant of a rectangle, Roark's approximation
            let j = a
                * pow(b, 3.0)
                * (16.0 / 3.0 - 3.36 * b / a * (1.0 - pow(b, 4.0) / pow(a, 4.0) / 12.0));
            let iy = pow(2.0 * w, 3.0) * 2.0 * h / 12.0;
            let iz = pow(2.0 * h, 3.0) * 2.0 * w / 12.0;
            [j, iy, iz]
        }
        _ => [0.0; 3],
    }
}

/// What MuJoCo's Cable object holds per body, derived from the model.
#[derive(Clone, Copy, Debug)]
struct Segment {
    /// Body id.
    body: usize,
    /// `qpos` address of the orientation against the previous body (first body: none).
    prev: Option<usize>,
    /// Twist and bending stiffnesses, then the distance to the previous body in the
    /// reference configuration (the segment's length; 0 for the first body).
    stiffness: [Real; 4],
    /// Curvature in the reference configuration.
    omega0: [Real; 3],
}

impl Segment {
    /// Whether the body has no stiffness at all (MuJoCo skips it; the length does not count).
    fn is_rigid_free(&self) -> bool {
        self.stiffness[..3].iter().all(|&k| k == 0.0)
    }

    /// Stress of the segment for orientation `quat`: `-k * (curvature - omega0) / length`, in
    /// the frame of the previous body, or pulled back into the body's own frame.
    fn stress(&self, quat: &[Real; 4], pullback: bool) -> [Real; 3] {
        let omega = quat2vel(quat, 1.0);
        let k = &self.stiffness;
        let local = [
            -k[0] * (omega[0] - self.omega0[0]) / k[3],
            -k[1] * (omega[1] - self.omega0[1]) / k[3],
            -k[2] * (omega[2] - self.omega0[2]) / k[3],
        ];
        if pullback {
            rot_vec_quat(&local, &neg_quat(quat))
        } else {
            local
        }
    }

    /// The stress at the current `qpos` (a segment with a previous body only).
    fn current_stress(&self, m: &Model, qpos: &[Real], pullback: bool) -> [Real; 3] {
        let adr = self.prev.unwrap_or(0);
        self.stress(&relative_orientation(m, qpos, self.body, adr), pullback)
    }
}

/// A body's frame in the reference configuration.
#[derive(Clone, Copy, Debug)]
struct Frame {
    body: usize,
    pos: [Real; 3],
    quat: [Real; 4],
    mat: [Real; 9],
}

/// Body frames in the reference configuration, computed along the chain: a body whose parent
/// was the last or the one before extends it; any other starts again from the world.
struct ReferenceFrames<'a> {
    m: &'a Model<'a>,
    recent: [Option<Frame>; 2],
}

impl<'a> ReferenceFrames<'a> {
    fn new(m: &'a Model<'a>) -> Self {
        ReferenceFrames {
            m,
            recent: [None, None],
        }
    }

    /// Position of `body` in the reference configuration.
    fn pos(&mut self, body: usize) -> [Real; 3] {
        if let Some(f) = self.recent(body) {
            return f.pos;
        }
        let parent = self.m.body_parentid[body] as usize;
        let frame = if parent == 0 {
            self.child(body, None)
        } else if let Some(p) = self.recent(parent) {
            self.child(body, Some(&p))
        } else {
            self.down_from_world(body)
        };
        self.recent = [self.recent[1], Some(frame)];
        frame.pos
    }

    fn recent(&self, body: usize) -> Option<Frame> {
        self.recent
            .iter()
            .flatten()
            .find(|f| f.body == body)
            .copied()
    }

    /// The frame of `body` from the world down, one ancestor after the other (each found by
    /// walking up from `body`: quadratic in the depth, which a cable pays once).
    fn down_from_world(&self, body: usize) -> Frame {
        let m = self.m;
        let mut frame: Option<Frame> = None;
        let mut reached = 0;
        loop {
            let mut next = body;
            while m.body_parentid[next] as usize != reached && next != 0 {
                next = m.body_parentid[next] as usize;
            }
            let f = self.child(next, frame.as_ref());
            if next == body || next == 0 {
                return f;
            }
            frame = Some(f);
            reached = next;
        }
    }

    /// `mj_kinematics` of one body at `qpos0` given its parent's frame (`None`: the world).
    fn child(&self, body: usize, parent: Option<&Frame>) -> Frame {
        let m = self.m;
        let offset = if m.body_mocapid[body] >= 0 {
            // zeroed mocap pose: the orientation normalizes to the identity
            ([0.0; 3], [1.0, 0.0, 0.0, 0.0])
        } else {
            (v3(&m.body_pos)[body], v4(&m.body_quat)[body])
        };
        let parent = parent.map(|p| ParentFrame {
            pos: &p.pos,
            mat: &p.mat,
            quat: &p.quat,
        });
        let (pos, mut quat) =
            pose_from_parent(m, body, parent, offset, &m.qpos0, true, |_, _, _| {});
        normalize4(&mut quat);
        Frame {
            body,
            pos,
            quat,
            mat: quat2mat(&quat),
        }
    }
}

/// The segments of an instance, in chain order, derived one by one.
struct Segments<'a> {
    m: &'a Model<'a>,
    config: Config,
    first: usize,
    count: usize,
    frames: ReferenceFrames<'a>,
}

impl<'a> Segments<'a> {
    fn new(m: &'a Model<'a>, instance: usize) -> Self {
        let (first, count) = instance_bodies(m, instance);
        Segments {
            m,
            config: Config::from_model(m, instance),
            first,
            count,
            frames: ReferenceFrames::new(m),
        }
    }

    /// Segment `b` of the chain (call in increasing `b`, so the reference frames extend).
    fn get(&mut self, b: usize) -> Segment {
        let m = self.m;
        let i = self.first + b;
        let prev = if b > 0 { orientation_adr(m, i) } else { None };
        let omega0 = match prev {
            Some(adr) if !self.config.flat => {
                let mut q = quat_at(&m.qpos0, adr);
                normalize4(&mut q);
                sub_quat(&v4(&m.body_quat)[i], &q)
            }
            _ => [0.0; 3],
        };
        let [j, iy, iz] = usize::try_from(m.body_geomadr[i]).map_or([0.0; 3], |g| section(m, g));
        let length = if prev.is_some() {
            let before = self.frames.pos(i - 1);
            dist3(&self.frames.pos(i), &before)
        } else {
            0.0
        };
        Segment {
            body: i,
            prev,
            stiffness: [
                j * self.config.twist,
                iy * self.config.bend,
                iz * self.config.bend,
                length,
            ],
            omega0,
        }
    }
}

/// Adds the cable's torques of instance `instance` to `qfrc`.
fn add_torques(m: &Model, d: &Data, instance: usize, qfrc: &mut [Real]) {
    let mut segments = Segments::new(m, instance);
    let count = segments.count;
    if count == 0 {
        return;
    }
    let mut current = segments.get(0);
    for b in 0..count {
        let next = (b + 1 < count).then(|| segments.get(b + 1));
        if !current.is_rigid_free() {
            let mut torque = [0.0; 3];
            if current.prev.is_some() {
                add_to_scl3(&mut torque, &current.current_stress(m, d.qpos, true), 1.0);
            }
            if let Some(n) = &next {
                add_to_scl3(&mut torque, &n.current_stress(m, d.qpos, false), -1.0);
            }
            let i = current.body;
            let global = rot_vec_quat(&torque, &v4(d.xquat)[i]);
            apply_torque(m, d, &global, i, qfrc);
        }
        if let Some(n) = next {
            current = n;
        }
    }
}

/// MuJoCo's jet colour map of the norm of `stress` between `vmin` and `vmax` (red, green,
/// blue; alpha is left alone).
#[allow(clippy::unnecessary_cast)] // Real is f32 in the f32 build
fn jet(stress: &[Real; 3], vmin: Real, vmax: Real) -> [f32; 3] {
    let mut v = norm3(stress);
    v = if v < vmin { vmin } else { v };
    v = if v > vmax { vmax } else { v };
    let dv = vmax - vmin;
    let rgb = if v < vmin + 0.25 * dv {
        [0.0, 4.0 * (v - vmin) / dv, 1.0]
    } else if v < vmin + 0.5 * dv {
        [0.0, 1.0, 1.0 + 4.0 * (vmin + 0.25 * dv - v) / dv]
    } else if v < vmin + 0.75 * dv {
        [4.0 * (v - vmin - 0.5 * dv) / dv, 1.0, 0.0]
    } else {
        [1.0, 1.0 + 4.0 * (vmin + 0.75 * dv - v) / dv, 0.0]
    };
    rgb.map(|c: Real| c as f32)
}

/// The stress MuJoCo's Cable object holds for segment `b` after a compute: the segment's own,
/// pulled back, when it is not rigid-free; else the one its previous body wrote (not pulled
/// back) when that one is not; else zero (the first segment's is always zero).
fn held_stress(m: &Model, qpos: &[Real], seg: &Segment, before_rigid_free: bool) -> [Real; 3] {
    if seg.prev.is_none() {
        [0.0; 3]
    } else if !seg.is_rigid_free() {
        seg.current_stress(m, qpos, true)
    } else if !before_rigid_free {
        seg.current_stress(m, qpos, false)
    } else {
        [0.0; 3]
    }
}

/// Colours the first geom of each body by the mean stress of its two segments (MuJoCo's
/// `Cable::Visualize`). MuJoCo colours by the stress of the last compute, mjrs by the stress of
/// the current `qpos`: the same after `mj_forward`, one step later after `mj_step`.
fn colour_bodies(m: &Model, d: &Data, instance: usize, scn: &mut dyn PluginScene) {
    let mut segments = Segments::new(m, instance);
    let count = segments.count;
    let vmax = segments.config.vmax;
    if count == 0 || vmax == 0.0 {
        return;
    }
    let mut current = segments.get(0);
    let mut held = [0.0; 3];
    for b in 0..count {
        let next = (b + 1 < count).then(|| segments.get(b + 1));
        let next_held = next
            .as_ref()
            .map(|n| held_stress(m, d.qpos, n, current.is_rigid_free()));
        let left = if b > 0 {
            held
        } else {
            next_held.unwrap_or(held)
        };
        let right = next_held.unwrap_or(held);
        let mean = scl3(&add3(&left, &right), 0.5);
        if let Ok(g) = usize::try_from(m.body_geomadr[current.body]) {
            let [r, gr, bl] = jet(&mean, 0.0, vmax);
            scn.set_geom_rgba(g, [r, gr, bl, m.geom_rgba[4 * g + 3]]);
        }
        if let (Some(n), Some(h)) = (next, next_held) {
            current = n;
            held = h;
        }
    }
}

impl Plugin for Cable {
    fn name(&self) -> &'static str {
        "mujoco.elasticity.cable"
    }

    fn attributes(&self) -> &'static [&'static str] {
        &["twist", "bend", "flat", "vmax"]
    }

    fn capabilities(&self) -> u32 {
        PLUGIN_PASSIVE
    }

    /// MuJoCo's checks when the instance is created: `twist` and `bend` are numbers, the
    /// bodies naming the instance are consecutive. Beyond MuJoCo, which would read outside its
    /// arrays: every body has a geom, every body after the first an orientation joint.
    fn init(&self, m: &Model, instance: usize) -> Result<(), PluginError> {
        for key in ["twist", "bend"] {
            let text = plugin_config(m, instance, key).unwrap_or("");
            if !is_number_without_spaces(text) {
                return Err(PluginError::failed(
                    "Invalid parameter specification in cable plugin",
                ));
            }
        }
        let (first, count) = instance_bodies(m, instance);
        for i in first..first + count {
            if usize::try_from(m.body_plugin[i]).ok() != Some(instance) {
                return Err(PluginError::failed(
                    "This body does not have the requested plugin instance",
                ));
            }
            if m.body_geomnum[i] < 1 || m.body_geomadr[i] < 0 {
                return Err(PluginError::failed(
                    "a body of the cable plugin has no geom",
                ));
            }
            if i > first && !has_orientation(m, i) {
                return Err(PluginError::failed(
                    "a body of the cable plugin after the first needs a ball or free joint as \
                     its last joint, right after hinge or slide joints only",
                ));
            }
        }
        Ok(())
    }

    fn compute(
        &self,
        m: &Model,
        d: &mut Data,
        instance: usize,
        _capability: u32,
    ) -> Result<(), StepError> {
        let qfrc = core::mem::take(&mut d.qfrc_passive);
        add_torques(m, d, instance, qfrc);
        d.qfrc_passive = qfrc;
        Ok(())
    }

    fn visualize(&self, m: &Model, d: &mut Data, instance: usize, scn: &mut dyn PluginScene) {
        colour_bodies(m, d, instance, scn);
    }
}
