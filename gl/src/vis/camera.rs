//! The scene's two OpenGL cameras from an abstract camera (`mjv_updateCamera`), in MuJoCo's mix
//! of float and double arithmetic.

use super::error::{check_match, SceneError};
use super::geom::n2f;
use super::{camera_type, Camera, Scene};
use mjrs_core::math::scalar;
use mjrs_core::real::PI;
use mjrs_core::{Data, Model, Real};

/// Sets the scene's two OpenGL cameras from `cam` (`mjv_updateCamera`): free and tracking
/// cameras orbit `lookat` (tracking first moves `lookat` a fifth of the way to the body's
/// subtree center of mass), fixed cameras are the model's; user cameras are left alone.
pub fn update_camera(
    m: &Model,
    d: &Data,
    cam: &mut Camera,
    scn: &mut Scene,
) -> Result<(), SceneError> {
    check_match(m, d)?;
    if cam.type_ == camera_type::USER {
        return Ok(());
    }
    let znear = (Real::from(m.vis.map.znear) * m.stat.extent) as f32;
    let zfar = (Real::from(m.vis.map.zfar) * m.stat.extent) as f32;
    let mut zhor = [0f32; 2];
    let (zver, headpos, forward, up, right, ipd);
    match cam.type_ {
        camera_type::FREE | camera_type::TRACKING => {
            ipd = Real::from(m.vis.global.ipd);
            zver = [fovy_half_height(znear, m.vis.global.fovy); 2];
            if cam.type_ == camera_type::TRACKING {
                let body = usize::try_from(cam.trackbodyid)
                    .ok()
                    .filter(|&b| b < m.nbody)
                    .ok_or(SceneError::BadCamera(
                        "track body id is outside valid range",
                    ))?;
                for k in 0..3 {
                    let mv = d.subtree_com[3 * body + k] - cam.lookat[k];
                    cam.lookat[k] += mv * 0.2;
                }
            }
            let (ca, sa) = angle(cam.azimuth);
            let (ce, se) = angle(cam.elevation);
            forward = [ce * ca, ce * sa, se];
            up = [-se * ca, -se * sa, ce];
            right = [sa, -ca, 0.0];
            headpos = core::array::from_fn(|k| cam.lookat[k] + forward[k] * -cam.distance);
        }
        camera_type::FIXED => {
            let c = usize::try_from(cam.fixedcamid)
                .ok()
                .filter(|&c| c < m.ncam)
                .ok_or(SceneError::BadCamera(
                    "fixed camera id is outside valid range",
                ))?;
            ipd = m.cam_ipd[c];
            if m.cam_sensorsize[2 * c + 1] != 0.0 {
                let (v, h) = frustum(
                    znear,
                    &m.cam_intrinsic[4 * c..4 * c + 4],
                    &m.cam_sensorsize[2 * c..2 * c + 2],
                );
                (zver, zhor) = (v, h);
            } else {
                zver = [fovy_half_height(znear, m.cam_fovy[c] as f32); 2];
            }
            let mat = &d.cam_xmat[9 * c..9 * c + 9];
            forward = [-mat[2], -mat[5], -mat[8]];
            up = [mat[1], mat[4], mat[7]];
            right = [mat[0], mat[3], mat[6]];
            headpos = [
                d.cam_xpos[3 * c],
                d.cam_xpos[3 * c + 1],
                d.cam_xpos[3 * c + 2],
            ];
        }
        _ => return Err(SceneError::BadCamera("unknown camera type")),
    }
    for (view, gl) in scn.camera.iter_mut().enumerate() {
        let eye = if view == 1 { ipd } else { -ipd };
        gl.pos = core::array::from_fn(|i| (headpos[i] + eye * 0.5 * right[i]) as f32);
        gl.forward = n2f(&forward);
        gl.up = n2f(&up);
        gl.frustum_top = zver[1];
        gl.frustum_bottom = -zver[0];
        gl.frustum_center = (zhor[1] - zhor[0]) / 2.0;
        gl.frustum_width = (zhor[1] + zhor[0]) / 2.0;
        gl.frustum_near = znear;
        gl.frustum_far = zfar;
    }
    scn.enabletransform = 0;
    Ok(())
}

/// Cosine and sine of an angle in degrees.
fn angle(degrees: Real) -> (Real, Real) {
    let rad = degrees / 180.0 * PI;
    (scalar::cos(rad), scalar::sin(rad))
}

/// Half height of the near plane for a vertical field of view (degrees), in MuJoCo's mix of
/// float and double arithmetic.
fn fovy_half_height(znear: f32, fovy: f32) -> f32 {
    let half = fovy * (PI / 360.0) as f32;
    (Real::from(znear) * scalar::tan(Real::from(half))) as f32
}

/// The near-plane frustum from a camera's intrinsics and sensor size (MuJoCo's `getFrustum`).
fn frustum(znear: f32, k: &[f32], sensor: &[f32]) -> ([f32; 2], [f32; 2]) {
    let zhor = [
        znear / k[0] * (sensor[0] / 2.0 - k[2]),
        znear / k[0] * (sensor[0] / 2.0 + k[2]),
    ];
    let zver = [
        znear / k[1] * (sensor[1] / 2.0 - k[3]),
        znear / k[1] * (sensor[1] / 2.0 + k[3]),
    ];
    (zver, zhor)
}
