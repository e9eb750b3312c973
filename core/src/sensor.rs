//! Sensors and energy (MuJoCo's `engine_sensor.c`; "XML Reference › sensor", "Computation ›
//! Simulation pipeline"). `sensor_pos`, `sensor_vel` and `sensor_acc` each fill `sensordata`
//! for the sensors whose `sensor_needstage` is their stage, call the user-sensor callback, then
//! apply the cutoffs of that stage.
//!
//! MuJoCo 3.1.6 adds no noise: the engine never reads `sensor_noise`, so neither does mjrs.
//!
//! The rangefinder casts a ray ([`ray`](crate::ray::ray)); geomdist, geomnormal and
//! geomfromto use [`geom_distance`] with the sensor's cutoff as the margin. Plugin sensors are
//! refused with [`StepError::Unsupported`].

use crate::arena::ArenaArrays;
use crate::collision::geom_distance;
use crate::data::Data;
use crate::error::StepError;
use crate::math::mat::{mul_mat_t_vec, rot_vec_mat_t};
use crate::math::misc::{clip, max, min};
use crate::math::quat::{mul_quat, neg_quat, sub_quat};
use crate::math::scalar::{abs, tan};
use crate::math::spatial::transform_spatial;
use crate::math::vec::{cross, dot, dot3, normalize3, scl3, sub3};
use crate::model::Model;
use crate::plugin::{for_each_instance, PLUGIN_SENSOR};
use crate::ray::{self, ray_geom};
use crate::real::{Real, MINVAL, PI};
use crate::smooth::{rne_post_constraint, subtree_vel};
use crate::support::{
    contact_force_of, disabled, enabled, mul_m, object_acceleration, object_velocity, v3, v4, v6,
    v9,
};
use crate::types::*;

/// For an object type without a spatial frame on a frame sensor. The MJB validator rejects
/// such models, so a validated model never meets it.
const NO_FRAME: StepError = StepError::Unsupported("sensor on an object without a frame");

/// For a sensor type in a stage that does not compute it. The validator checks
/// `sensor_needstage` against the type, so a validated model never meets it.
const WRONG_STAGE: StepError = StepError::Unsupported("sensor type in another stage");

/// Whether the sensor stages do nothing: disabled, or a build without the `sensor` feature
/// (whose validation refuses models with sensors).
fn sensors_off(m: &Model) -> bool {
    !cfg!(feature = "sensor") || disabled(m, DSBL_SENSOR)
}

/// Position-dependent sensors (`mj_sensorPos`): magnetometer, rangefinder, camera projection,
/// joint, tendon and actuator positions, ball joint quaternions, frame positions, orientations and
/// axes, subtree centers of mass, clock, and user sensors of this stage. Writes `sensordata`.
pub fn sensor_pos(m: &Model, d: &mut Data) -> Result<(), StepError> {
    if sensors_off(m) {
        return Ok(());
    }
    let mut has_user = false;
    let mut last_pair = None;
    for i in stage_sensors(m, STAGE_POS) {
        let id = m.sensor_objid[i] as usize;
        let reading = match m.sensor_type[i] {
            SENS_MAGNETOMETER => magnetometer(m, d, id),
            SENS_CAMPROJECTION => camprojection(m, d, i),
            SENS_RANGEFINDER => rangefinder(m, d, id)?,
            SENS_JOINTPOS => d.qpos[m.jnt_qposadr[id] as usize].into(),
            SENS_TENDONPOS => d.ten_length[id].into(),
            SENS_ACTUATORPOS => d.actuator_length[id].into(),
            SENS_BALLQUAT => v4(&d.qpos[m.jnt_qposadr[id] as usize..])[0].into(),
            SENS_FRAMEPOS | SENS_FRAMEXAXIS | SENS_FRAMEYAXIS | SENS_FRAMEZAXIS => {
                frame_vector(m, d, i)?
            }
            SENS_FRAMEQUAT => frame_quat(m, d, i)?,
            SENS_SUBTREECOM => v3(d.subtree_com)[id].into(),
            SENS_CLOCK => d.time.into(),
            SENS_GEOMDIST | SENS_GEOMNORMAL | SENS_GEOMFROMTO => {
                geom_sensor(m, d, i, &mut last_pair)?;
                continue;
            }
            SENS_JOINTLIMITPOS | SENS_TENDONLIMITPOS => {
                limit_reading(d, m.sensor_type[i], id, |a, j| {
                    a.efc_pos[j] - a.efc_margin[j]
                })
            }
            SENS_USER => {
                has_user = true;
                continue;
            }
            // computed by their plugin after the built-in sensors
            SENS_PLUGIN => continue,
            _ => return Err(WRONG_STAGE),
        };
        reading.write(m, d, i);
    }
    finish_stage(m, d, STAGE_POS, has_user, true)
}

/// Velocity-dependent sensors (`mj_sensorVel`): velocimeter, gyro, joint, tendon and actuator
/// velocities, ball joint angular velocities, frame linear and angular velocities, subtree
/// linear velocities and angular momenta, and user sensors of this stage.
///
/// Like MuJoCo, runs `subtree_vel` (which writes `subtree_linvel` and `subtree_angmom`) only
/// when a subtree or user sensor of this stage needs it.
pub fn sensor_vel(m: &Model, d: &mut Data) -> Result<(), StepError> {
    if sensors_off(m) {
        return Ok(());
    }
    let needs_subtree = stage_sensors(m, STAGE_VEL).any(|i| {
        matches!(
            m.sensor_type[i],
            SENS_SUBTREELINVEL | SENS_SUBTREEANGMOM | SENS_USER
        )
    });
    if needs_subtree {
        subtree_vel(m, d)?;
    }
    let mut has_user = false;
    for i in stage_sensors(m, STAGE_VEL) {
        let id = m.sensor_objid[i] as usize;
        let reading = match m.sensor_type[i] {
            SENS_VELOCIMETER => linear(&site_velocity(m, d, id)?),
            SENS_GYRO => angular(&site_velocity(m, d, id)?),
            SENS_JOINTVEL => d.qvel[m.jnt_dofadr[id] as usize].into(),
            SENS_TENDONVEL => d.ten_velocity[id].into(),
            SENS_ACTUATORVEL => d.actuator_velocity[id].into(),
            SENS_BALLANGVEL => v3(&d.qvel[m.jnt_dofadr[id] as usize..])[0].into(),
            SENS_FRAMELINVEL => linear(&frame_velocity(m, d, i)?),
            SENS_FRAMEANGVEL => angular(&frame_velocity(m, d, i)?),
            SENS_SUBTREELINVEL => v3(d.subtree_linvel)[id].into(),
            SENS_SUBTREEANGMOM => v3(d.subtree_angmom)[id].into(),
            SENS_JOINTLIMITVEL | SENS_TENDONLIMITVEL => {
                limit_reading(d, m.sensor_type[i], id, |a, j| a.efc_vel[j])
            }
            SENS_USER => {
                has_user = true;
                continue;
            }
            // computed by their plugin after the built-in sensors
            SENS_PLUGIN => continue,
            _ => return Err(WRONG_STAGE),
        };
        reading.write(m, d, i);
    }
    finish_stage(m, d, STAGE_VEL, has_user, needs_subtree)
}

/// Acceleration- and force-dependent sensors (`mj_sensorAcc`): touch, accelerometer, force,
/// torque, actuator forces, joint actuator forces, frame linear and angular accelerations, and
/// user sensors of this stage.
///
/// Like MuJoCo, runs `rne_post_constraint` (which writes `cacc`, `cfrc_int` and `cfrc_ext`)
/// only when a sensor of this stage reads those or is a user sensor.
pub fn sensor_acc(m: &Model, d: &mut Data) -> Result<(), StepError> {
    if sensors_off(m) {
        return Ok(());
    }
    let needs_rne_post = stage_sensors(m, STAGE_ACC).any(|i| {
        matches!(
            m.sensor_type[i],
            SENS_ACCELEROMETER
                | SENS_FORCE
                | SENS_TORQUE
                | SENS_FRAMELINACC
                | SENS_FRAMEANGACC
                | SENS_USER
        )
    });
    if needs_rne_post {
        rne_post_constraint(m, d);
    }
    let mut has_user = false;
    for i in stage_sensors(m, STAGE_ACC) {
        let id = m.sensor_objid[i] as usize;
        let reading = match m.sensor_type[i] {
            SENS_TOUCH => touch(m, d, id),
            SENS_ACCELEROMETER => {
                linear(&object_acceleration(m, d, OBJ_SITE, id, true).ok_or(NO_FRAME)?)
            }
            SENS_FORCE => linear(&site_interaction(m, d, id)),
            SENS_TORQUE => angular(&site_interaction(m, d, id)),
            SENS_ACTUATORFRC => d.actuator_force[id].into(),
            SENS_JOINTACTFRC => d.qfrc_actuator[m.jnt_dofadr[id] as usize].into(),
            SENS_JOINTLIMITFRC | SENS_TENDONLIMITFRC => {
                limit_reading(d, m.sensor_type[i], id, |a, j| a.efc_force[j])
            }
            // MuJoCo 3.1.6 ignores the reference frame of acceleration sensors
            SENS_FRAMELINACC => linear(&frame_acceleration(m, d, i)?),
            SENS_FRAMEANGACC => angular(&frame_acceleration(m, d, i)?),
            SENS_USER => {
                has_user = true;
                continue;
            }
            // computed by their plugin after the built-in sensors
            SENS_PLUGIN => continue,
            _ => return Err(WRONG_STAGE),
        };
        reading.write(m, d, i);
    }
    finish_stage(m, d, STAGE_ACC, has_user, needs_rne_post)
}

// ------------------------------------------------------------------------------------------------
// stage bookkeeping

/// The sensors computed in `stage`, in model order.
fn stage_sensors<'a>(m: &'a Model, stage: i32) -> impl Iterator<Item = usize> + 'a {
    (0..m.nsensor).filter(move |&i| m.sensor_needstage[i] == stage)
}

/// The end of a sensor stage: the user callback if this stage has user sensors (without a
/// callback their data is left as it is), the sensor plugins of this stage, then the cutoffs.
/// `prepared` says whether the stage's shared quantities (`subtree_vel` for velocities,
/// `rne_post_constraint` for accelerations) are computed; plugins get them computed first.
fn finish_stage(
    m: &Model,
    d: &mut Data,
    stage: i32,
    has_user: bool,
    mut prepared: bool,
) -> Result<(), StepError> {
    if has_user {
        if let Some(callback) = d.callbacks.sensor {
            callback(m, d, stage);
        }
    }
    for_each_instance(m, PLUGIN_SENSOR, |i, p| {
        let needstage = p.needstage();
        let runs = needstage == stage || (stage == STAGE_POS && needstage == STAGE_NONE);
        if !runs {
            return Ok(());
        }
        if !prepared {
            prepared = true;
            if stage == STAGE_VEL {
                subtree_vel(m, d)?;
            } else if stage == STAGE_ACC {
                rne_post_constraint(m, d);
            }
        }
        p.compute(m, d, i, PLUGIN_SENSOR)
    })?;
    apply_cutoff(m, d, stage);
    Ok(())
}

/// Clamps the data of the sensors of `stage` with a positive cutoff (`apply_cutoff`): real data
/// to `[-cutoff, cutoff]`, positive data to at most `cutoff`; axes and quaternions are left
/// alone, and so is geomfromto, whose cutoff is a distance margin.
fn apply_cutoff(m: &Model, d: &mut Data, stage: i32) {
    for i in stage_sensors(m, stage) {
        let cutoff = m.sensor_cutoff[i];
        if cutoff <= 0.0 || m.sensor_type[i] == SENS_GEOMFROMTO {
            continue;
        }
        let adr = m.sensor_adr[i] as usize;
        let data = &mut d.sensordata[adr..adr + m.sensor_dim[i] as usize];
        match m.sensor_datatype[i] {
            DATATYPE_REAL => data.iter_mut().for_each(|x| *x = clip(*x, -cutoff, cutoff)),
            DATATYPE_POSITIVE => data.iter_mut().for_each(|x| *x = min(cutoff, *x)),
            _ => {}
        }
    }
}

/// What a geom-distance sensor measures: its objects and margin, and the result.
#[derive(Clone, Copy, PartialEq)]
struct GeomPair {
    objtype: i32,
    objid: i32,
    reftype: i32,
    refid: i32,
    margin: Real,
}

/// The geoms of a geom-distance sensor's object: a body's geoms, or one geom.
fn sensor_geoms(m: &Model, objtype: i32, id: i32) -> core::ops::Range<usize> {
    let id = id as usize;
    if objtype == OBJ_BODY {
        let adr = m.body_geomadr[id].max(0) as usize;
        adr..adr + m.body_geomnum[id] as usize
    } else {
        id..id + 1
    }
}

/// Geomdist, geomnormal and geomfromto sensors: the smallest distance (within the cutoff,
/// which is the margin) over all pairs of the two objects' geoms, and the segment between the
/// nearest points. A sensor right after one with the same objects and margin reuses its
/// result, as MuJoCo does.
fn geom_sensor(
    m: &Model,
    d: &mut Data,
    i: usize,
    last: &mut Option<(GeomPair, Real, [Real; 6])>,
) -> Result<(), StepError> {
    let pair = GeomPair {
        objtype: m.sensor_objtype[i],
        objid: m.sensor_objid[i],
        reftype: m.sensor_reftype[i],
        refid: m.sensor_refid[i],
        margin: m.sensor_cutoff[i],
    };
    let (dist, fromto) = match *last {
        Some((p, dist, fromto)) if p == pair => (dist, fromto),
        _ => {
            let (mut dist, mut fromto) = (pair.margin, [0.0; 6]);
            for g1 in sensor_geoms(m, pair.objtype, pair.objid) {
                for g2 in sensor_geoms(m, pair.reftype, pair.refid) {
                    let mut candidate = [0.0; 6];
                    let dist_new = geom_distance(m, d, g1, g2, pair.margin, Some(&mut candidate))?;
                    if dist_new < dist {
                        dist = dist_new;
                        fromto = candidate;
                    }
                }
            }
            (dist, fromto)
        }
    };
    *last = Some((pair, dist, fromto));
    let adr = m.sensor_adr[i] as usize;
    match m.sensor_type[i] {
        SENS_GEOMDIST => d.sensordata[adr] = dist,
        SENS_GEOMNORMAL => {
            let mut normal = [
                fromto[3] - fromto[0],
                fromto[4] - fromto[1],
                fromto[5] - fromto[2],
            ];
            if normal != [0.0; 3] {
                normalize3(&mut normal);
            }
            d.sensordata[adr..adr + 3].copy_from_slice(&normal);
        }
        _ => d.sensordata[adr..adr + 6].copy_from_slice(&fromto),
    }
    Ok(())
}

/// One sensor's output (up to a quaternion), computed from `Data` before it is written into
/// `sensordata`.
#[derive(Clone, Copy)]
struct Reading {
    values: [Real; 4],
    len: usize,
}

impl Reading {
    /// Writes the values at sensor `i`'s address.
    fn write(&self, m: &Model, d: &mut Data, i: usize) {
        let adr = m.sensor_adr[i] as usize;
        d.sensordata[adr..adr + self.len].copy_from_slice(&self.values[..self.len]);
    }
}

impl From<Real> for Reading {
    fn from(x: Real) -> Self {
        [x].into()
    }
}

impl<const N: usize> From<[Real; N]> for Reading {
    fn from(v: [Real; N]) -> Self {
        const { assert!(N <= 4) };
        let mut values = [0.0; 4];
        values[..N].copy_from_slice(&v);
        Reading { values, len: N }
    }
}

/// The angular part of a 6D `[rot; lin]` vector.
fn angular(v: &[Real; 6]) -> Reading {
    [v[0], v[1], v[2]].into()
}

/// The linear part of a 6D `[rot; lin]` vector.
fn linear(v: &[Real; 6]) -> Reading {
    [v[3], v[4], v[5]].into()
}

// ------------------------------------------------------------------------------------------------
// frames

/// Position and orientation of an object with a spatial frame (`get_xpos_xmat`); a body means
/// its inertial frame, an xbody its regular frame.
fn frame<'d>(
    d: &'d Data,
    objtype: i32,
    id: usize,
) -> Result<(&'d [Real; 3], &'d [Real; 9]), StepError> {
    let (pos, mat) = match objtype {
        OBJ_XBODY => (&*d.xpos, &*d.xmat),
        OBJ_BODY => (&*d.xipos, &*d.ximat),
        OBJ_GEOM => (&*d.geom_xpos, &*d.geom_xmat),
        OBJ_SITE => (&*d.site_xpos, &*d.site_xmat),
        OBJ_CAMERA => (&*d.cam_xpos, &*d.cam_xmat),
        _ => return Err(NO_FRAME),
    };
    Ok((&v3(pos)[id], &v9(mat)[id]))
}

/// Global orientation quaternion of an object with a spatial frame (`get_xquat`), composed
/// from its body's `xquat` and its local quaternion rather than converted from `xmat`.
fn frame_xquat(m: &Model, d: &Data, objtype: i32, id: usize) -> Result<[Real; 4], StepError> {
    let (body, local) = match objtype {
        OBJ_XBODY => return Ok(v4(d.xquat)[id]),
        OBJ_BODY => (id, &v4(&m.body_iquat)[id]),
        OBJ_GEOM => (m.geom_bodyid[id] as usize, &v4(&m.geom_quat)[id]),
        OBJ_SITE => (m.site_bodyid[id] as usize, &v4(&m.site_quat)[id]),
        OBJ_CAMERA => (m.cam_bodyid[id] as usize, &v4(&m.cam_quat)[id]),
        _ => return Err(NO_FRAME),
    };
    Ok(mul_quat(&v4(d.xquat)[body], local))
}

/// The reference frame of sensor `i`: its type and id, or `None` for the world frame.
fn reference(m: &Model, i: usize) -> Option<(i32, usize)> {
    let refid = usize::try_from(m.sensor_refid[i]).ok()?;
    Some((m.sensor_reftype[i], refid))
}

/// The object of sensor `i`: its type and id.
fn object(m: &Model, i: usize) -> (i32, usize) {
    (m.sensor_objtype[i], m.sensor_objid[i] as usize)
}

/// framepos, framexaxis, frameyaxis, framezaxis: the object's position or one axis of its
/// frame, in the world frame or in the reference frame.
fn frame_vector(m: &Model, d: &Data, i: usize) -> Result<Reading, StepError> {
    let (objtype, id) = object(m, i);
    let (pos, mat) = frame(d, objtype, id)?;
    let axis = |k: usize| [mat[k], mat[k + 3], mat[k + 6]];
    let ty = m.sensor_type[i];
    let Some((reftype, refid)) = reference(m, i) else {
        return Ok(match ty {
            SENS_FRAMEPOS => *pos,
            _ => axis((ty - SENS_FRAMEXAXIS) as usize),
        }
        .into());
    };
    let (ref_pos, ref_mat) = frame(d, reftype, refid)?;
    let global = match ty {
        SENS_FRAMEPOS => sub3(pos, ref_pos),
        _ => axis((ty - SENS_FRAMEXAXIS) as usize),
    };
    Ok(rot_vec_mat_t(&global, ref_mat).into())
}

/// framequat: the object's orientation, in the world frame or relative to the reference.
fn frame_quat(m: &Model, d: &Data, i: usize) -> Result<Reading, StepError> {
    let (objtype, id) = object(m, i);
    let quat = frame_xquat(m, d, objtype, id)?;
    Ok(match reference(m, i) {
        None => quat,
        Some((reftype, refid)) => {
            let ref_quat = frame_xquat(m, d, reftype, refid)?;
            mul_quat(&neg_quat(&ref_quat), &quat)
        }
    }
    .into())
}

/// framelinvel, frameangvel: the object's 6D velocity `[rot; lin]` at its origin, in the world
/// frame, or relative to a moving reference frame and expressed in it.
fn frame_velocity(m: &Model, d: &Data, i: usize) -> Result<[Real; 6], StepError> {
    let (objtype, id) = object(m, i);
    let vel = object_velocity(m, d, objtype, id, false).ok_or(NO_FRAME)?;
    let Some((reftype, refid)) = reference(m, i) else {
        return Ok(vel);
    };
    let (pos, _) = frame(d, objtype, id)?;
    let (ref_pos, ref_mat) = frame(d, reftype, refid)?;
    let ref_vel = object_velocity(m, d, reftype, refid, false).ok_or(NO_FRAME)?;
    let mut rel: [Real; 6] = core::array::from_fn(|k| vel[k] - ref_vel[k]);
    // a point fixed in a rotating reference frame moves with it: remove that velocity
    let carried = cross(&sub3(pos, ref_pos), &[ref_vel[0], ref_vel[1], ref_vel[2]]);
    for k in 0..3 {
        rel[3 + k] += carried[k];
    }
    let rot = rot_vec_mat_t(&[rel[0], rel[1], rel[2]], ref_mat);
    let lin = rot_vec_mat_t(&[rel[3], rel[4], rel[5]], ref_mat);
    Ok([rot[0], rot[1], rot[2], lin[0], lin[1], lin[2]])
}

/// framelinacc, frameangacc: the object's 6D acceleration at its origin, in the world frame.
fn frame_acceleration(m: &Model, d: &Data, i: usize) -> Result<[Real; 6], StepError> {
    let (objtype, id) = object(m, i);
    object_acceleration(m, d, objtype, id, false).ok_or(NO_FRAME)
}

// ------------------------------------------------------------------------------------------------
// site sensors

/// magnetometer: the global magnetic field `opt.magnetic` in the site frame.
fn magnetometer(m: &Model, d: &Data, site: usize) -> Reading {
    let mut field = [0.0; 3];
    mul_mat_t_vec(&mut field, &v9(d.site_xmat)[site], &m.opt.magnetic, 3, 3);
    field.into()
}

/// velocimeter, gyro: the site's 6D velocity in its own frame.
fn site_velocity(m: &Model, d: &Data, site: usize) -> Result<[Real; 6], StepError> {
    object_velocity(m, d, OBJ_SITE, site, true).ok_or(NO_FRAME)
}

/// force, torque: the interaction force:torque between the site's body and its parent
/// (`cfrc_int`), moved to the site and expressed in its frame.
fn site_interaction(m: &Model, d: &Data, site: usize) -> [Real; 6] {
    let body = m.site_bodyid[site] as usize;
    let root = m.body_rootid[body] as usize;
    transform_spatial(
        &v6(d.cfrc_int)[body],
        true,
        &v3(d.site_xpos)[site],
        &v3(d.subtree_com)[root],
        Some(&v9(d.site_xmat)[site]),
    )
}

/// camprojection: pixel coordinates of the site in the image of the reference camera
/// (`cam_project`). The projection matrix `image * focal * rotation * translation` is built and
/// applied with MuJoCo's operation order, for the same rounding; MuJoCo sums over the zeros of
/// those sparse matrices too, which changes nothing.
fn camprojection(m: &Model, d: &Data, i: usize) -> Reading {
    let site = m.sensor_objid[i] as usize;
    let cam = m.sensor_refid[i] as usize;
    let res = [m.cam_resolution[2 * cam], m.cam_resolution[2 * cam + 1]];
    let (fx, fy) = focal_lengths(m, cam, res);

    // intrinsic matrix image * focal: pixels per unit of camera x, y, z
    let (cx, cy) = (int_to_real(res[0]) / 2.0, int_to_real(res[1]) / 2.0);
    let intrinsic = [[-fx, 0.0, cx], [0.0, fy, cy], [0.0, 0.0, 1.0]];

    // rotation[k][l] is cam_xmat transposed; translation moves the camera to the origin
    let cam_mat = &v9(d.cam_xmat)[cam];
    let cam_pos = &v3(d.cam_xpos)[cam];
    let proj: [[Real; 4]; 3] = core::array::from_fn(|r| {
        let k = &intrinsic[r];
        let mut row = [0.0; 4];
        for n in 0..3 {
            row[n] = (0..3).fold(0.0, |s, j| s + k[j] * cam_mat[3 * n + j]);
        }
        row[3] = (0..3).fold(0.0, |s, j| {
            (0..3).fold(s, |s, l| s + k[j] * cam_mat[3 * l + j] * -cam_pos[l])
        });
        row
    });

    let target = &v3(d.site_xpos)[site];
    let pixel: [Real; 3] = core::array::from_fn(|r| {
        let p = &proj[r];
        0.0 + p[0] * target[0] + p[1] * target[1] + p[2] * target[2] + p[3]
    });

    // keep the denominator away from zero, with its sign
    let mut denom = pixel[2];
    if abs(denom) < MINVAL {
        denom = if denom < 0.0 {
            min(denom, -MINVAL)
        } else {
            max(denom, MINVAL)
        };
    }
    [pixel[0] / denom, pixel[1] / denom].into()
}

/// Focal lengths in pixels of camera `cam`: from its intrinsics and sensor size when it has
/// them (computed in single precision, as MuJoCo does with these `float` fields), else from
/// its vertical field of view.
fn focal_lengths(m: &Model, cam: usize, res: [i32; 2]) -> (Real, Real) {
    let size = [m.cam_sensorsize[2 * cam], m.cam_sensorsize[2 * cam + 1]];
    if size[0] != 0.0 && size[1] != 0.0 {
        let intrinsic = &m.cam_intrinsic[4 * cam..4 * cam + 2];
        let fx = intrinsic[0] / size[0] * res[0] as f32;
        let fy = intrinsic[1] / size[1] * res[1] as f32;
        (Real::from(fx), Real::from(fy))
    } else {
        let f = 0.5 / tan(m.cam_fovy[cam] * PI / 360.0) * int_to_real(res[1]);
        (f, f)
    }
}

/// An integer as `Real` (exact for f64; rounded once for f32).
fn int_to_real(x: i32) -> Real {
    f64::from(x) as Real
}

// ------------------------------------------------------------------------------------------------
// constraint sensors

/// A joint or tendon limit sensor (`sensor_type` `ty`) of object `id`: `read` of the first limit
/// row of that object after the equality and friction rows, or 0 when it has none.
fn limit_reading(
    d: &Data,
    ty: i32,
    id: usize,
    read: impl Fn(&ArenaArrays, usize) -> Real,
) -> Reading {
    let row_type = match ty {
        SENS_JOINTLIMITPOS | SENS_JOINTLIMITVEL | SENS_JOINTLIMITFRC => CNSTR_LIMIT_JOINT,
        _ => CNSTR_LIMIT_TENDON,
    };
    let a = d.arena.arrays();
    let rows = (d.ne + d.nf..d.nefc).take_while(|&j| j < a.efc_type.len() && j < a.efc_id.len());
    let found = rows
        .into_iter()
        .find(|&j| a.efc_type[j] == row_type && a.efc_id[j] == id as i32);
    found.map_or(0.0, |j| read(&a, j)).into()
}

/// rangefinder: the distance along the site's z axis from the site to the nearest geom of any
/// group, static ones included, but not of the site's body (-1 when nothing is hit). Marks
/// mesh tree nodes in `bvh_active` as [`ray::ray`] does.
fn rangefinder(m: &Model, d: &mut Data, site: usize) -> Result<Reading, StepError> {
    let pnt = v3(d.site_xpos)[site];
    let mat = &v9(d.site_xmat)[site];
    let zaxis = [mat[2], mat[5], mat[8]];
    let (dist, _) = ray::ray(m, d, &pnt, &zaxis, None, true, m.site_bodyid[site])?;
    Ok(dist.into())
}

/// touch: the sum of the positive normal forces of the contacts of the site's body whose
/// normal, cast as a ray from the contact point into that body, meets the site's volume.
fn touch(m: &Model, d: &Data, site: usize) -> Reading {
    let body = m.site_bodyid[site];
    let (pos, mat) = (&v3(d.site_xpos)[site], &v9(d.site_xmat)[site]);
    let size = &v3(&m.site_size)[site];
    let mut total = 0.0;
    // the views once, not once per contact
    let only = crate::arena::ArenaMask::of(&[
        crate::arena::ArenaField::contact,
        crate::arena::ArenaField::efc_force,
    ]);
    let a = d.arena.arrays_only(only);
    for con in a.contact.iter().take(d.ncon) {
        let conbody = con
            .geom
            .map(|g| usize::try_from(g).map_or(-1, |g| m.geom_bodyid[g]));
        if con.efc_address < 0 || (body != conbody[0] && body != conbody[1]) {
            continue;
        }
        let normal = contact_force_of(m, con, a.efc_force)[0];
        if normal <= 0.0 {
            continue;
        }
        let mut ray = scl3(&[con.frame[0], con.frame[1], con.frame[2]], normal);
        normalize3(&mut ray);
        // the normal points from the first body to the second
        if body == conbody[1] {
            ray = scl3(&ray, -1.0);
        }
        // a site type without a ray test (the validator allows none) touches nothing
        let hit = ray_geom(pos, mat, size, &con.pos, &ray, m.site_type[site]).unwrap_or(-1.0);
        if hit >= 0.0 {
            total += normal;
        }
    }
    total.into()
}

// ------------------------------------------------------------------------------------------------
// energy

/// Potential energy `energy[0]` (`mj_energyPos`): gravity, joint and tendon springs. Cleared
/// when the energy flag is off.
pub fn energy_pos(m: &Model, d: &mut Data) -> Result<(), StepError> {
    d.energy = [0.0; 2];
    if !enabled(m, ENBL_ENERGY) {
        return Ok(());
    }
    let mut e = 0.0;
    if !disabled(m, DSBL_GRAVITY) {
        for i in 1..m.nbody {
            e -= m.body_mass[i] * dot3(&m.opt.gravity, &v3(d.xipos)[i]);
        }
    }
    if !disabled(m, DSBL_PASSIVE) {
        for j in 0..m.njnt {
            add_joint_spring_energy(m, d, j, &mut e);
        }
        for i in 0..m.ntendon {
            let (lower, upper) = (
                m.tendon_lengthspring[2 * i],
                m.tendon_lengthspring[2 * i + 1],
            );
            let length = d.ten_length[i];
            let displacement = if length > upper {
                upper - length
            } else if length < lower {
                lower - length
            } else {
                0.0
            };
            e += 0.5 * m.tendon_stiffness[i] * displacement * displacement;
        }
        flex_spring_energy(m, d, &mut e);
    }
    d.energy[0] = e;
    Ok(())
}

/// Adds the energy of the edge springs of 1D flexes (the elasticity plugins own the springs
/// of 2D and 3D flexes): `stiffness (length0 - length)² / 2` per edge that is not rigid.
fn flex_spring_energy(m: &Model, d: &Data, e: &mut Real) {
    for f in 0..m.nflex {
        let stiffness = m.flex_edgestiffness[f];
        if m.flex_rigid[f] != 0 || stiffness == 0.0 || m.flex_dim[f] > 1 {
            continue;
        }
        let start = m.flex_edgeadr[f] as usize;
        for k in start..start + m.flex_edgenum[f] as usize {
            if m.flexedge_rigid[k] == 0 {
                let displacement = m.flexedge_length0[k] - d.flexedge_length[k];
                *e += 0.5 * stiffness * displacement * displacement;
            }
        }
    }
}

/// Adds the spring energy of joint `j` (translation and rotation of a free joint as two terms,
/// in MuJoCo's order, for the same rounding).
fn add_joint_spring_energy(m: &Model, d: &Data, j: usize, e: &mut Real) {
    let k = m.jnt_stiffness[j];
    let mut padr = m.jnt_qposadr[j] as usize;
    let quat = |s: &[Real], a: usize| [s[a], s[a + 1], s[a + 2], s[a + 3]];
    let t = m.jnt_type[j];
    if t == JNT_FREE {
        let dif = sub3s(&d.qpos[padr..], &m.qpos_spring[padr..]);
        *e += 0.5 * k * dot3(&dif, &dif);
        padr += 3;
    }
    if t == JNT_FREE || t == JNT_BALL {
        let rot = sub_quat(&quat(d.qpos, padr), &quat(&m.qpos_spring, padr));
        *e += 0.5 * k * dot3(&rot, &rot);
    } else {
        let dif = d.qpos[padr] - m.qpos_spring[padr];
        *e += 0.5 * k * dif * dif;
    }
}

fn sub3s(a: &[Real], b: &[Real]) -> [Real; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// Kinetic energy `energy[1] = qvel' M qvel / 2` (`mj_energyVel`).
pub fn energy_vel(m: &Model, d: &mut Data) -> Result<(), StepError> {
    if !enabled(m, ENBL_ENERGY) {
        return Ok(());
    }
    d.with_stack(|d, stack| -> Result<(), StepError> {
        let vec = stack.alloc::<Real>(m.nv)?;
        mul_m(m, d, vec, d.qvel);
        d.energy[1] = 0.5 * dot(vec, d.qvel);
        Ok(())
    })
}
