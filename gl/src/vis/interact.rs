//! Interaction (MuJoCo's `engine_vis_interact.c`): moving the camera, the model and the
//! perturbation reference with the mouse, starting and applying perturbations, and the
//! room/model transformations of an immersive scene.

use super::error::{check_match, SceneError};
use super::geom::{to3, to4, to9};
use super::{camera_type, Camera, Perturb, Scene};
use mjrs_core::math::mat::rot_vec_mat;
use mjrs_core::math::pose::{mul_pose, neg_pose};
use mjrs_core::math::quat::{axis_angle2quat, mat2quat, mul_quat, neg_quat, quat2mat, quat2vel};
use mjrs_core::math::scalar;
use mjrs_core::math::vec::{cross, dot, dot3, normalize, normalize3, normalize4};
use mjrs_core::real::MINVAL;
use mjrs_core::types::{JNT_FREE, OBJ_BODY};
use mjrs_core::{Data, Model, Real};

use mjrs_core::real::PI;

/// Head position, forward and up directions of the viewer.
pub type Gaze = ([Real; 3], [Real; 3], [Real; 3]);

/// Mouse actions (`mjtMouse`).
pub mod mouse {
    /// No action.
    pub const NONE: i32 = 0;
    /// Rotate about a vertical screen axis.
    pub const ROTATE_V: i32 = 1;
    /// Rotate about a horizontal screen axis.
    pub const ROTATE_H: i32 = 2;
    /// Move in the vertical plane.
    pub const MOVE_V: i32 = 3;
    /// Move in the horizontal plane.
    pub const MOVE_H: i32 = 4;
    /// Zoom.
    pub const ZOOM: i32 = 5;
    /// Select.
    pub const SELECT: i32 = 6;
}

/// Perturbation bits (`mjtPertBit`).
pub mod pert {
    /// Translation.
    pub const TRANSLATE: i32 = 1;
    /// Rotation.
    pub const ROTATE: i32 = 2;
}

/// A pose from room to model space (`mjv_room2model`): through the inverse of the model
/// transformation when it is enabled, unchanged otherwise.
pub fn room_to_model(
    scn: &Scene,
    pos: &[Real; 3],
    quat: &[Real; 4],
) -> Result<([Real; 3], [Real; 4]), SceneError> {
    check_scale(scn)?;
    if scn.enabletransform == 0 {
        return Ok((*pos, *quat));
    }
    let (invpos, invquat) = neg_pose(&scn.translate.map(Real::from), &scn.rotate.map(Real::from));
    let (mut mpos, mquat) = mul_pose(&invpos, &invquat, pos, quat);
    let inv = 1.0 / Real::from(scn.scale);
    for p in &mut mpos {
        *p *= inv;
    }
    Ok((mpos, mquat))
}

/// A pose from model to room space (`mjv_model2room`): through the model transformation,
/// then scaled, when it is enabled.
pub fn model_to_room(
    scn: &Scene,
    pos: &[Real; 3],
    quat: &[Real; 4],
) -> Result<([Real; 3], [Real; 4]), SceneError> {
    check_scale(scn)?;
    if scn.enabletransform == 0 {
        return Ok((*pos, *quat));
    }
    let (mut rpos, rquat) = mul_pose(
        &scn.translate.map(Real::from),
        &scn.rotate.map(Real::from),
        pos,
        quat,
    );
    let scale = Real::from(scn.scale);
    for p in &mut rpos {
        *p *= scale;
    }
    Ok((rpos, rquat))
}

fn check_scale(scn: &Scene) -> Result<(), SceneError> {
    if Real::from(scn.scale) < MINVAL {
        return Err(SceneError::BadCamera("mjvScene scale too small"));
    }
    Ok(())
}

fn check_near(scn: &Scene) -> Result<(), SceneError> {
    if scn
        .camera
        .iter()
        .any(|c| Real::from(c.frustum_near) < MINVAL)
    {
        return Err(SceneError::BadCamera("mjvScene frustum_near too small"));
    }
    Ok(())
}

/// Head position, gaze and up direction in room space (`mjv_cameraInRoom`): the two eyes
/// averaged.
pub fn camera_in_room(scn: &Scene) -> Result<Gaze, SceneError> {
    check_near(scn)?;
    let (mut head, mut forward, mut up) = ([0.0; 3], [0.0; 3], [0.0; 3]);
    for c in &scn.camera {
        for k in 0..3 {
            head[k] += Real::from(c.pos[k]) * 0.5;
            forward[k] += Real::from(c.forward[k]) * 0.5;
            up[k] += Real::from(c.up[k]) * 0.5;
        }
    }
    normalize3(&mut forward);
    normalize3(&mut up);
    Ok((head, forward, up))
}

// Here rather than with the plain types in `vis/mod.rs`, which call nothing above them: it
// needs the room/model transformation above.
impl Scene {
    /// The viewer's head position, gaze and up direction in model coordinates
    /// (`mjv_cameraInModel`), as MuJoCo computes it: each eye's frame goes through a quaternion
    /// (so the model transformation can apply, undone when it is enabled) and back, and the two
    /// eyes are averaged.
    pub fn camera_in_model(&self) -> Gaze {
        let (mut head, mut forward, mut up) = ([0.0; 3], [0.0; 3], [0.0; 3]);
        for cam in &self.camera {
            let mut pos: [Real; 3] = cam.pos.map(Real::from);
            let mut fwd: [Real; 3] = cam.forward.map(Real::from);
            let mut u: [Real; 3] = cam.up.map(Real::from);
            normalize3(&mut fwd);
            normalize3(&mut u);
            let mut left = cross(&u, &fwd);
            normalize3(&mut left);
            let mat = [
                left[0], u[0], fwd[0], left[1], u[1], fwd[1], left[2], u[2], fwd[2],
            ];
            let mut quat = mat2quat(&mat);
            if let Ok(model) = room_to_model(self, &pos, &quat) {
                (pos, quat) = model;
            }
            let model = quat2mat(&quat);
            for k in 0..3 {
                head[k] += pos[k] * 0.5;
                forward[k] += 0.5 * model[3 * k + 2];
                up[k] += 0.5 * model[3 * k + 1];
            }
        }
        normalize3(&mut forward);
        normalize3(&mut up);
        (head, forward, up)
    }
}

/// [`Scene::camera_in_model`], refusing a scene whose cameras were never set.
pub fn camera_in_model(scn: &Scene) -> Result<Gaze, SceneError> {
    check_near(scn)?;
    check_scale(scn)?;
    Ok(scn.camera_in_model())
}

/// Height of the view frustum at unit distance, averaged over the eyes (`mjv_frustumHeight`).
pub fn frustum_height(scn: &Scene) -> Result<Real, SceneError> {
    check_near(scn)?;
    let h = |c: &super::GlCamera| (c.frustum_top - c.frustum_bottom) / c.frustum_near;
    Ok(0.5 * Real::from(h(&scn.camera[0]) + h(&scn.camera[1])))
}

/// `vec` rotated in the horizontal plane by the angle between the y axis and the horizontal
/// part of `forward` (`mjv_alignToCamera`).
pub fn align_to_camera(vec: &[Real; 3], forward: &[Real; 3]) -> [Real; 3] {
    let mut y = [forward[0], forward[1]];
    normalize(&mut y);
    let x = [y[1], -y[0]];
    [
        vec[0] * x[0] + vec[1] * y[0],
        vec[0] * x[1] + vec[1] * y[1],
        vec[2],
    ]
}

/// A mouse motion as a 3D vector aligned with the camera (MuJoCo's `convert2D`).
fn convert_2d(
    action: i32,
    dx: Real,
    dy: Real,
    forward: &[Real; 3],
) -> Result<[Real; 3], SceneError> {
    let vec = match action {
        mouse::ROTATE_V => [dy, 0.0, dx],
        mouse::ROTATE_H => [dy, dx, 0.0],
        mouse::MOVE_V => [dx, 0.0, -dy],
        mouse::MOVE_H => [dx, -dy, 0.0],
        // MuJoCo leaves the vector unset for zoom; nothing reads it
        mouse::ZOOM => [0.0; 3],
        _ => return Err(SceneError::BadAction(action)),
    };
    Ok(align_to_camera(&vec, forward))
}

/// Moves the camera by a mouse motion `(reldx, reldy)` relative to the window size
/// (`mjv_moveCamera`): rotate changes azimuth and elevation, move shifts `lookat` so that it
/// follows the mouse (not for tracking cameras), zoom changes the distance; then azimuth is
/// wrapped to [-180, 180], elevation clamped to [-89, 89] and the distance to
/// [0.01, 100] extents. Fixed cameras do not move.
pub fn move_camera(
    m: &Model,
    action: i32,
    reldx: Real,
    reldy: Real,
    scn: &Scene,
    cam: &mut Camera,
) -> Result<(), SceneError> {
    if cam.type_ == camera_type::FIXED {
        return Ok(());
    }
    match action {
        mouse::ROTATE_V | mouse::ROTATE_H => {
            cam.azimuth -= reldx * 180.0;
            cam.elevation -= reldy * 180.0;
        }
        mouse::MOVE_V | mouse::MOVE_H => {
            if cam.type_ == camera_type::TRACKING {
                return Ok(());
            }
            let (head, forward, _) = camera_in_model(scn)?;
            let vec = convert_2d(action, reldx, reldy, &forward)?;
            let dif = [
                cam.lookat[0] - head[0],
                cam.lookat[1] - head[1],
                cam.lookat[2] - head[2],
            ];
            let scl = frustum_height(scn)? * dot3(&dif, &forward);
            for k in 0..3 {
                cam.lookat[k] += vec[k] * -scl;
            }
        }
        mouse::ZOOM => {
            let extent = m.stat.extent;
            cam.distance -= scalar::log(1.0 + cam.distance / extent / 3.0) * reldy * 9.0 * extent;
        }
        _ => return Err(SceneError::BadAction(action)),
    }
    if cam.azimuth > 180.0 {
        cam.azimuth -= 360.0;
    }
    if cam.azimuth < -180.0 {
        cam.azimuth += 360.0;
    }
    cam.elevation = cam.elevation.clamp(-89.0, 89.0);
    let extent = m.stat.extent;
    if cam.distance < 0.01 * extent {
        cam.distance = 0.01 * extent;
    }
    if cam.distance > 100.0 * extent {
        cam.distance = 100.0 * extent;
    }
    Ok(())
}

/// Moves the perturbation reference by a mouse motion (`mjv_movePerturb`): translation moves
/// the reference position and selection point, rotation turns the reference orientation (at
/// most 90 degrees away from the selected body's).
pub fn move_perturb(
    m: &Model,
    d: &Data,
    action: i32,
    reldx: Real,
    reldy: Real,
    scn: &Scene,
    pert: &mut Perturb,
) -> Result<(), SceneError> {
    check_match(m, d)?;
    let (_, forward, _) = camera_in_model(scn)?;
    let mut vec = convert_2d(action, reldx, reldy, &forward)?;
    match action {
        mouse::MOVE_V | mouse::MOVE_H => {
            for k in 0..3 {
                pert.refpos[k] += vec[k] * pert.scale;
                pert.refselpos[k] += vec[k] * pert.scale;
            }
        }
        mouse::ROTATE_V | mouse::ROTATE_H => {
            let scl = normalize3(&mut vec);
            let q1 = axis_angle2quat(&vec, scl * PI * 2.0);
            pert.refquat = mul_quat(&q1, &pert.refquat);
            normalize4(&mut pert.refquat);
            let sel = pert.select;
            if sel > 0 && (sel as usize) < m.nbody {
                limit_rotation(m, d, sel as usize, pert);
            }
        }
        _ => {}
    }
    Ok(())
}

/// Keeps the perturbation orientation within 90 degrees of the selected body's inertial frame.
fn limit_rotation(m: &Model, d: &Data, sel: usize, pert: &mut Perturb) {
    let xiquat = mul_quat(&to4(&d.xquat[4 * sel..]), &to4(&m.body_iquat[4 * sel..]));
    let q2 = mul_quat(&neg_quat(&xiquat), &pert.refquat);
    let mut dif = quat2vel(&q2, 1.0);
    let angle = normalize3(&mut dif);
    if !(-PI * 0.5..=PI * 0.5).contains(&angle) {
        let clamped = (-PI * 0.5).max((PI * 0.5).min(angle));
        let q2 = axis_angle2quat(&dif, clamped);
        pert.refquat = mul_quat(&xiquat, &q2);
    }
}

/// Moves the model in an immersive scene by a mouse motion (`mjv_moveModel`): rotation about
/// room axes, translation in the vertical or horizontal plane, scaling by zoom (to
/// [0.01, 100]). Nothing happens while the model transformation is disabled.
pub fn move_model(
    m: &Model,
    action: i32,
    reldx: Real,
    reldy: Real,
    roomup: &[Real; 3],
    scn: &mut Scene,
) -> Result<(), SceneError> {
    if scn.enabletransform == 0 {
        return Ok(());
    }
    let (_, camforward, _) = camera_in_room(scn)?;
    let along = dot3(&camforward, roomup);
    let mut roomforward: [Real; 3] = core::array::from_fn(|k| camforward[k] + roomup[k] * -along);
    normalize3(&mut roomforward);
    let mut roomright = cross(&roomforward, roomup);
    normalize3(&mut roomright);
    let extent = m.stat.extent;
    match action {
        mouse::ROTATE_V | mouse::ROTATE_H => {
            let first = if action == mouse::ROTATE_V {
                roomup
            } else {
                &roomforward
            };
            let mut vec: [Real; 3] =
                core::array::from_fn(|i| first[i] * reldx + roomright[i] * reldy);
            let scl = normalize3(&mut vec);
            let quat = axis_angle2quat(&vec, scl * PI);
            let mut result = mul_quat(&quat, &scn.rotate.map(Real::from));
            normalize4(&mut result);
            scn.rotate = result.map(|x| x as f32);
        }
        mouse::MOVE_V | mouse::MOVE_H => {
            let second = if action == mouse::MOVE_V {
                roomup
            } else {
                &roomforward
            };
            for i in 0..3 {
                let step = Real::from((roomright[i] * reldx - second[i] * reldy) as f32) * extent;
                scn.translate[i] = (Real::from(scn.translate[i]) + step) as f32;
            }
        }
        mouse::ZOOM => {
            let grow = scalar::log(Real::from(1.0 + scn.scale / 3.0)) * reldy * 3.0;
            scn.scale = (scn.scale + grow as f32).clamp(0.01, 100.0);
        }
        _ => return Err(SceneError::BadAction(action)),
    }
    Ok(())
}

/// Starts a perturbation of the selected body (`mjv_initPerturb`): the reference pose is the
/// body's inertial frame, `localmass` the effective mass at the selection point, `scale`
/// what makes the reference follow the mouse. Does nothing when no body is selected.
pub fn init_perturb(
    m: &Model,
    d: &Data,
    scn: &Scene,
    pert: &mut Perturb,
) -> Result<(), SceneError> {
    check_match(m, d)?;
    let sel = pert.select;
    if sel <= 0 || sel as usize >= m.nbody {
        return Ok(());
    }
    let sel = sel as usize;
    let selpos = selection_point(d, sel, &pert.localpos);
    let nv = m.nv;
    let mut jacp = vec![0.0; 3 * nv];
    mjrs_core::support::jac(m, d, Some(&mut jacp), None, &selpos, sel);
    let mut jac_m2 = vec![0.0; 3 * nv];
    mjrs_core::smooth::solve_m2(m, d, &mut jac_m2, &jacp, 3);
    let row = |r: usize| &jac_m2[r * nv..(r + 1) * nv];
    let invmass = dot(row(0), row(0)) + dot(row(1), row(1)) + dot(row(2), row(2));
    pert.localmass = if invmass == 0.0 {
        1.0
    } else {
        3.0 / invmass.max(MINVAL)
    };
    // a flex vertex drags its neighbours along: scale by the edges per vertex
    if let Ok(f) = usize::try_from(pert.flexselect) {
        if f < m.nflex && m.flex_rigid[f] == 0 {
            pert.localmass *= (2.0 * Real::from(m.flex_edgenum[f])) / Real::from(m.flex_vertnum[f]);
        }
    }
    pert.refpos = to3(&d.xipos[3 * sel..]);
    pert.refquat = mul_quat(&to4(&d.xquat[4 * sel..]), &to4(&m.body_iquat[4 * sel..]));
    pert.refselpos = selpos;
    let (head, forward, _) = camera_in_model(scn)?;
    let dif = [
        selpos[0] - head[0],
        selpos[1] - head[1],
        selpos[2] - head[2],
    ];
    pert.scale = frustum_height(scn)? * dot3(&dif, &forward);
    Ok(())
}

/// The selection point in world coordinates.
pub(super) fn selection_point(d: &Data, sel: usize, localpos: &[Real; 3]) -> [Real; 3] {
    let mut p = rot_vec_mat(localpos, &to9(&d.xmat[9 * sel..]));
    for k in 0..3 {
        p[k] += d.xpos[3 * sel + k];
    }
    p
}

/// Moves the selected body to the perturbation reference (`mjv_applyPerturbPose`): a mocap
/// body always; while paused, a body with a free joint or, through its root's free joint, a
/// body of a floating tree.
pub fn apply_perturb_pose(
    m: &Model,
    d: &mut Data,
    pert: &Perturb,
    paused: bool,
) -> Result<(), SceneError> {
    check_match(m, d)?;
    let sel = pert.select;
    if sel <= 0 || sel as usize >= m.nbody || (pert.active | pert.active2) == 0 {
        return Ok(());
    }
    let sel = sel as usize;
    let root = m.body_rootid[sel] as usize;
    let (pos1, quat1) = neg_pose(
        &to3(&m.body_ipos[3 * sel..]),
        &to4(&m.body_iquat[4 * sel..]),
    );
    let (refpos, refquat) = mul_pose(&pert.refpos, &pert.refquat, &pos1, &quat1);
    let free =
        |b: usize| m.body_jntnum[b] == 1 && m.jnt_type[m.body_jntadr[b] as usize] == JNT_FREE;
    if let Ok(mocap) = usize::try_from(m.body_mocapid[sel]) {
        d.mocap_pos[3 * mocap..3 * mocap + 3].copy_from_slice(&refpos);
        d.mocap_quat[4 * mocap..4 * mocap + 4].copy_from_slice(&refquat);
    } else if paused && free(sel) {
        let adr = m.jnt_qposadr[m.body_jntadr[sel] as usize] as usize;
        d.qpos[adr..adr + 3].copy_from_slice(&refpos);
        d.qpos[adr + 3..adr + 7].copy_from_slice(&refquat);
    } else if paused && free(root) {
        // root <- ref * neg(child) * root
        let adr = m.jnt_qposadr[m.body_jntadr[root] as usize] as usize;
        let rpos = to3(&d.qpos[adr..]);
        let rquat = to4(&d.qpos[adr + 3..]);
        let cpos = to3(&d.xpos[3 * sel..]);
        let (p1, q1) = neg_pose(&cpos, &to4(&d.xquat[4 * sel..]));
        let (p2, q2) = mul_pose(&p1, &q1, &rpos, &rquat);
        let (p, q) = mul_pose(&refpos, &refquat, &p2, &q2);
        d.qpos[adr..adr + 3].copy_from_slice(&p);
        d.qpos[adr + 3..adr + 7].copy_from_slice(&q);
    }
    Ok(())
}

/// Writes the perturbation force and torque on the selected body into `xfrc_applied`
/// (`mjv_applyPerturbForce`): a critically damped spring pulling the selection point to the
/// reference (translation) and one turning the body to the reference orientation (rotation).
pub fn apply_perturb_force(m: &Model, d: &mut Data, pert: &Perturb) -> Result<(), SceneError> {
    check_match(m, d)?;
    let sel = pert.select;
    let active = pert.active | pert.active2;
    if sel < 0 || sel as usize >= m.nbody || active == 0 {
        return Ok(());
    }
    let sel = sel as usize;
    let Some(bvel) = mjrs_core::support::object_velocity(m, d, OBJ_BODY, sel, false) else {
        return Ok(());
    };
    let rotvel = [bvel[0], bvel[1], bvel[2]];
    let linvel = [bvel[3], bvel[4], bvel[5]];
    let invweight = m.body_invweight0[2 * sel + 1];
    let inertia = if invweight != 0.0 {
        1.0 / MINVAL.max(invweight)
    } else {
        1.0
    };
    let mut force = [
        d.xfrc_applied[6 * sel],
        d.xfrc_applied[6 * sel + 1],
        d.xfrc_applied[6 * sel + 2],
    ];
    let mut torque = [
        d.xfrc_applied[6 * sel + 3],
        d.xfrc_applied[6 * sel + 4],
        d.xfrc_applied[6 * sel + 5],
    ];
    if active & pert::TRANSLATE != 0 {
        let selpos = selection_point(d, sel, &pert.localpos);
        let mut diff: [Real; 3] = core::array::from_fn(|k| selpos[k] - pert.refselpos[k]);
        let stiffness = Real::from(m.vis.map.stiffness);
        force = diff.map(|x| x * (-stiffness * pert.localmass));
        let arm: [Real; 3] = core::array::from_fn(|k| selpos[k] - d.xipos[3 * sel + k]);
        let mut svel = cross(&rotvel, &arm);
        for k in 0..3 {
            svel[k] += linvel[k];
        }
        // critical damping; sqrtf in MuJoCo: the square root of the float stiffness
        let damping = -Real::from(m.vis.map.stiffness.sqrt()) * pert.localmass;
        for k in 0..3 {
            force[k] += svel[k] * damping;
        }
        torque = cross(&arm, &force);
        normalize3(&mut diff);
        let rot_damping =
            -Real::from(m.vis.map.stiffnessrot.sqrt()) * inertia * dot3(&diff, &rotvel);
        for k in 0..3 {
            torque[k] += diff[k] * rot_damping;
        }
    }
    if active & pert::ROTATE != 0 {
        let stiffness = Real::from(m.vis.map.stiffnessrot);
        let xiquat = mul_quat(&to4(&d.xquat[4 * sel..]), &to4(&m.body_iquat[4 * sel..]));
        let difquat = mul_quat(&pert.refquat, &neg_quat(&xiquat));
        torque = quat2vel(&difquat, 1.0 / (stiffness * inertia));
        let damping = -Real::from(m.vis.map.stiffnessrot.sqrt()) * inertia;
        for k in 0..3 {
            torque[k] += rotvel[k] * damping;
        }
    }
    d.xfrc_applied[6 * sel..6 * sel + 3].copy_from_slice(&force);
    d.xfrc_applied[6 * sel + 3..6 * sel + 6].copy_from_slice(&torque);
    Ok(())
}

/// The average of two eye cameras (`mjv_averageCamera`): mean position, mean forward
/// direction, the mean up direction made orthogonal to it, mean frustum.
pub fn average_camera(c1: &super::GlCamera, c2: &super::GlCamera) -> super::GlCamera {
    let wide = |a: &[f32; 3], b: &[f32; 3]| -> [Real; 3] {
        core::array::from_fn(|k| Real::from(a[k]) + Real::from(b[k]))
    };
    let pos = wide(&c1.pos, &c2.pos).map(|x| x * 0.5);
    let mut forward = wide(&c1.forward, &c2.forward);
    normalize3(&mut forward);
    let mut up = wide(&c1.up, &c2.up);
    let projection = dot3(&up, &forward);
    for k in 0..3 {
        up[k] += forward[k] * -projection;
    }
    normalize3(&mut up);
    let mean = |a: f32, b: f32| 0.5 * (a + b);
    super::GlCamera {
        pos: pos.map(|x| x as f32),
        forward: forward.map(|x| x as f32),
        up: up.map(|x| x as f32),
        frustum_bottom: mean(c1.frustum_bottom, c2.frustum_bottom),
        frustum_top: mean(c1.frustum_top, c2.frustum_top),
        frustum_center: mean(c1.frustum_center, c2.frustum_center),
        frustum_width: mean(c1.frustum_width, c2.frustum_width),
        frustum_near: mean(c1.frustum_near, c2.frustum_near),
        frustum_far: mean(c1.frustum_far, c2.frustum_far),
    }
}

/// What [`select`] hit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Selection {
    /// The body of the geom hit, the body of the flex vertex nearest to the flex hit, or the
    /// bone body weighing most on the skin vertex hit.
    pub body: i32,
    /// The geom hit (-1 when a flex or skin was hit).
    pub geom: i32,
    /// The flex hit (-1 when a geom or skin was hit).
    pub flex: i32,
    /// The skin hit (-1 when a geom or flex was hit).
    pub skin: i32,
    /// The point hit, in model coordinates.
    pub point: [Real; 3],
}

/// Picks what is under the mouse (`mjv_select`): a ray from the viewer through the point
/// `(relx, rely)` of a viewport of `aspectratio` (relative coordinates from the bottom left),
/// cast against the geoms of the shown groups (static ones if shown) and the shown skins (as
/// last posed by `update_scene`). `None` when nothing is hit. Shown flexes are hit as drawn
/// (`ray_flex`); a flex hit selects the vertex nearest to it.
pub fn select(
    m: &Model,
    d: &mut Data,
    opt: &super::VisOption,
    aspectratio: Real,
    relx: Real,
    rely: Real,
    scn: &Scene,
) -> Result<Option<Selection>, SceneError> {
    check_match(m, d)?;
    use super::flag;
    let cam = average_camera(&scn.camera[0], &scn.camera[1]);
    let (pos, forward, up) = camera_in_model(scn)?;
    let mut left = cross(&up, &forward);
    normalize3(&mut left);
    let height = Real::from(cam.frustum_top - cam.frustum_bottom);
    let halfwidth = 0.5 * aspectratio * height;
    let along_up = Real::from(cam.frustum_bottom) + rely * height;
    let along_left = -(Real::from(cam.frustum_center) + (2.0 * relx - 1.0) * halfwidth);
    let mut ray: [Real; 3] = core::array::from_fn(|k| forward[k] * Real::from(cam.frustum_near));
    for k in 0..3 {
        ray[k] += up[k] * along_up;
    }
    for k in 0..3 {
        ray[k] += left[k] * along_left;
    }
    normalize3(&mut ray);
    let groups = opt.geomgroup;
    let hit = mjrs_core::ray::ray(
        m,
        d,
        &pos,
        &ray,
        Some(&groups),
        opt.flags[flag::STATIC] != 0,
        -1,
    );
    let (geomdist, geom) = hit.map_err(|_| SceneError::Unsupported("picking with this view"))?;
    let flex = if super::flex::any_shown(opt) {
        pick_flex(m, d, opt, &pos, &ray)
    } else {
        None
    };
    let skin = if opt.flags[flag::SKIN] != 0 {
        pick_skin(m, scn, &pos, &ray)
    } else {
        None
    };
    let geom_hit = (geomdist >= 0.0 && geom >= 0).then_some(geomdist);
    // the nearest of geom, flex and skin; on a tie the earlier wins, as in MuJoCo's scan
    let dists = [geom_hit, flex.map(|f| f.0), skin.map(|s| s.0)];
    let mut best: Option<usize> = None;
    for (k, dist) in dists.iter().enumerate() {
        if let Some(x) = dist {
            if best.is_none_or(|b| dists[b].is_some_and(|y| y > *x)) {
                best = Some(k);
            }
        }
    }
    Ok(match best {
        Some(0) => Some(geom_selection(m, geom, &pos, &ray, geomdist)),
        Some(1) => flex.map(|(_, flex, body, point)| Selection {
            body,
            geom: -1,
            flex,
            skin: -1,
            point,
        }),
        Some(_) => skin.map(|(_, skin, body, point)| Selection {
            body,
            geom: -1,
            flex: -1,
            skin,
            point,
        }),
        None => None,
    })
}

fn geom_selection(m: &Model, geom: i32, pos: &[Real; 3], ray: &[Real; 3], dist: Real) -> Selection {
    Selection {
        body: m.geom_bodyid[geom as usize],
        geom,
        flex: -1,
        skin: -1,
        point: core::array::from_fn(|k| pos[k] + ray[k] * dist),
    }
}

/// The nearest shown flex along the ray: distance, flex, the body of the vertex nearest to the
/// hit, and that vertex.
fn pick_flex(
    m: &Model,
    d: &Data,
    opt: &super::VisOption,
    pos: &[Real; 3],
    ray: &[Real; 3],
) -> Option<(Real, i32, i32, [Real; 3])> {
    use super::flag;
    let parts = mjrs_core::ray::FlexParts {
        vert: opt.flags[flag::FLEXVERT] != 0,
        edge: opt.flags[flag::FLEXEDGE] != 0,
        face: opt.flags[flag::FLEXFACE] != 0,
        skin: opt.flags[flag::FLEXSKIN] != 0,
        layer: opt.flex_layer,
    };
    let mut best: Option<(Real, i32, i32, [Real; 3])> = None;
    for i in 0..m.nflex {
        let Ok((dist, Some(vert))) = mjrs_core::ray::ray_flex(m, d, parts, i, pos, ray) else {
            continue;
        };
        if dist < 0.0 || best.is_some_and(|b| dist >= b.0) {
            continue;
        }
        let v = m.flex_vertadr[i] as usize + vert;
        best = Some((
            dist,
            i as i32,
            m.flex_vertbodyid[v],
            to3(&d.flexvert_xpos[3 * v..]),
        ));
    }
    best
}

/// The nearest shown skin along the ray: distance, skin, the bone body with the largest weight
/// on the vertex hit, and that vertex.
fn pick_skin(
    m: &Model,
    scn: &Scene,
    pos: &[Real; 3],
    ray: &[Real; 3],
) -> Option<(Real, i32, i32, [Real; 3])> {
    let mut best: Option<(Real, i32, i32, [Real; 3])> = None;
    for i in 0..m.nskin {
        let (vadr, vnum) = (m.skin_vertadr[i] as usize, m.skin_vertnum[i] as usize);
        let (fadr, fnum) = (m.skin_faceadr[i] as usize, m.skin_facenum[i] as usize);
        let Some(vert) = scn.skinvert.get(3 * vadr..3 * (vadr + vnum)) else {
            continue;
        };
        let face = &m.skin_face[3 * fadr..3 * (fadr + fnum)];
        let Ok((dist, Some(vertid))) = mjrs_core::ray::ray_skin(face, vert, pos, ray) else {
            continue;
        };
        if dist < 0.0 || best.is_some_and(|b| dist >= b.0) {
            continue;
        }
        // the bone that weighs most on the vertex (the first of equals)
        let mut body = -1;
        let mut weight = -1.0f32;
        let first = m.skin_boneadr[i] as usize;
        for j in first..first + m.skin_bonenum[i] as usize {
            let vfirst = m.skin_bonevertadr[j] as usize;
            for k in vfirst..vfirst + m.skin_bonevertnum[j] as usize {
                if m.skin_bonevertid[k] as usize == vertid && m.skin_bonevertweight[k] > weight {
                    weight = m.skin_bonevertweight[k];
                    body = m.skin_bonebodyid[j];
                }
            }
        }
        let v = &vert[3 * vertid..3 * vertid + 3];
        best = Some((
            dist,
            i as i32,
            body,
            [Real::from(v[0]), Real::from(v[1]), Real::from(v[2])],
        ));
    }
    best
}
