//! `mjv_updateScene`: the model's geoms, sites and lights, and the stereo cameras, as plain
//! data. Floats are converted exactly where MuJoCo converts them (its `mjvGeom` and `mjvLight`
//! hold `float`s), so the scene equals MuJoCo's bit for bit.

use super::error::{check_match, SceneError};
use super::geom::{add_axes, body_category, connector, group, island_color, n2f, to3, to9};
use super::geom::{init_geom, set_material, start_geom};
use super::{camera_type, flag, Camera, Perturb, Scene, VisGeom, VisLight, VisOption};
use super::{CAT_DECOR, CAT_DYNAMIC, CAT_STATIC, MAXLIGHT};
use mjrs_core::math::vec::dot3;
use mjrs_core::math::{misc::round, scalar};
use mjrs_core::types::*;
use mjrs_core::{Data, Model, Real};

/// Grid lines of an infinite plane (`mjMAXPLANEGRID`).
const MAXPLANEGRID: Real = 200.0;

/// Rebuilds `scn` from the model and data (`mjv_updateScene`): the geoms of the categories in
/// `catmask`, then the cameras, then the lights (the headlight first). Geoms beyond
/// `scn.maxgeom` are dropped with the `VGEOMFULL` warning counted in `d`, as MuJoCo does.
pub fn update_scene(
    m: &Model,
    d: &mut Data,
    opt: &VisOption,
    pert: &Perturb,
    cam: &mut Camera,
    catmask: i32,
    scn: &mut Scene,
) -> Result<(), SceneError> {
    check_match(m, d)?;
    check_supported(m)?;
    scn.geoms.clear();
    add_geoms(m, d, opt, pert, catmask, scn);
    update_camera(m, d, cam, scn)?;
    make_lights(m, d, scn);
    if opt.flags[flag::SKIN] != 0 {
        super::skin::update_skins(m, d, opt, scn);
    }
    Ok(())
}

/// Refuses model features whose drawing is not implemented, instead of leaving them out of
/// the scene silently. No flag is refused: the flex flags draw only flexes, which no model
/// that loads has, and MuJoCo 3.1.6's scene update never reads `SDFITER`.
fn check_supported(m: &Model) -> Result<(), SceneError> {
    if m.nflex > 0 {
        return Err(SceneError::Unsupported("flexes"));
    }
    Ok(())
}

/// With island colours on and islands in the data: grey, or the colour of the island of the
/// body's weld root (MuJoCo colours a geom by its welded ancestor's first degree of freedom).
fn island_rgba(m: &Model, d: &Data, opt: &VisOption, body: usize) -> Option<[f32; 4]> {
    if opt.flags[flag::ISLAND] == 0 || d.nisland == 0 {
        return None;
    }
    let mut rgba = [0.5, 0.5, 0.5, 1.0];
    let weld = m.body_weldid[body] as usize;
    if m.body_dofnum[weld] != 0 {
        let a = d.arena.arrays();
        let island = a.dof_island[m.body_dofadr[weld] as usize];
        if island > -1 {
            rgba = island_color(a.island_dofind[a.island_dofadr[island as usize] as usize]);
        }
    }
    Some(rgba)
}

/// The geoms and sites of the shown groups and categories (the parts of `mjv_addGeoms` that
/// the default options draw).
fn add_geoms(
    m: &Model,
    d: &mut Data,
    opt: &VisOption,
    pert: &Perturb,
    catmask: i32,
    scn: &mut Scene,
) {
    let catmask = if opt.flags[flag::STATIC] == 0 {
        catmask & !CAT_STATIC
    } else {
        catmask
    };
    use super::objects;
    if !super::skin::add_skins(m, d, opt, pert, catmask, scn) {
        return;
    }
    super::decor::add_bvh(m, d, opt, scn);
    if !super::decor::add_inertia(m, d, opt, pert, catmask, scn)
        || !objects::add_perturb(m, d, opt, pert, catmask, scn)
        || !super::decor::add_body_frames(m, d, opt, catmask, scn)
        || !objects::add_selection_point(m, d, opt, pert, catmask, scn)
        || !super::labels::add_body_labels(m, d, opt, pert, catmask, scn)
        || !super::decor::add_joints(m, d, opt, catmask, scn)
        || !super::actuator::add_actuators(m, d, opt, catmask, scn)
        || !super::labels::add_island_labels(m, d, opt, catmask, scn)
    {
        return;
    }
    let glow = m.vis.global.glow;
    let selected = |body: i32| pert.select > 0 && pert.select == body;
    // float products: MuJoCo keeps the mean size as a float in this function
    let scl = m.stat.meansize as f32;
    let frame_length = Real::from(m.vis.scale.framelength * scl);
    let frame_width = Real::from(m.vis.scale.framewidth * scl);
    let mut planeid = -1;
    for i in 0..m.ngeom {
        if m.geom_type[i] == GEOM_PLANE {
            planeid += 1;
        }
        let category = body_category(m, m.geom_bodyid[i] as usize);
        if category & catmask == 0 || opt.geomgroup[group(m.geom_group[i])] == 0 {
            continue;
        }
        let Some(start) = start_geom(d, scn, OBJ_GEOM, i, category) else {
            return;
        };
        let mut g = VisGeom {
            dataid: m.geom_dataid[i],
            modelrbound: m.geom_rbound[i] as f32,
            ..init_geom(
                m.geom_type[i],
                Some(&m.geom_size[3 * i..3 * i + 3]),
                Some(&d.geom_xpos[3 * i..3 * i + 3]),
                Some(&d.geom_xmat[9 * i..9 * i + 9]),
                None,
            )
        };
        g.take_slot(&start);
        match island_rgba(m, d, opt, m.geom_bodyid[i] as usize) {
            Some(rgba) => set_material(m, &mut g, -1, &rgba, &opt.flags),
            None => {
                let rgba = &m.geom_rgba[4 * i..4 * i + 4];
                set_material(m, &mut g, m.geom_matid[i], rgba, &opt.flags)
            }
        }
        let ty = m.geom_type[i];
        let mesh = (ty == GEOM_MESH || ty == GEOM_SDF) && m.geom_dataid[i] >= 0;
        if mesh && m.mesh_texcoordadr[m.geom_dataid[i] as usize] >= 0 {
            g.texcoord = 1;
        }
        if g.rgba[3] == 0.0 {
            continue;
        }
        if selected(m.geom_bodyid[i]) {
            g.emission += glow;
        }
        if opt.label == super::label::GEOM {
            g.label = super::labels::make_label(m, OBJ_GEOM, i);
        }
        if ty == GEOM_MESH || ty == GEOM_SDF {
            // mesh 2k is the mesh, 2k+1 its convex hull
            g.dataid *= 2;
            let hull = mesh && m.mesh_graphadr[m.geom_dataid[i] as usize] >= 0;
            if hull
                && opt.flags[flag::CONVEXHULL] != 0
                && (m.geom_contype[i] != 0 || m.geom_conaffinity[i] != 0)
            {
                g.dataid += 1;
            }
        } else if ty == GEOM_PLANE {
            g.dataid = planeid;
            g.pos = n2f(&plane_position(m, d, scn, i));
        }
        scn.geoms.push(g);
        if catmask & CAT_DECOR != 0 && opt.frame == super::frame::GEOM {
            let (pos, mat) = (&d.geom_xpos[3 * i..], &d.geom_xmat[9 * i..]);
            let pose = (to3(pos), to9(mat));
            if !add_axes(
                d,
                scn,
                OBJ_UNKNOWN,
                i,
                &pose.0,
                &pose.1,
                frame_length,
                frame_width,
            ) {
                return;
            }
        }
    }
    for i in 0..m.nsite {
        let category = body_category(m, m.site_bodyid[i] as usize);
        if category & catmask == 0 || opt.sitegroup[group(m.site_group[i])] == 0 {
            continue;
        }
        let Some(start) = start_geom(d, scn, OBJ_SITE, i, category) else {
            return;
        };
        let mut g = init_geom(
            m.site_type[i],
            Some(&m.site_size[3 * i..3 * i + 3]),
            Some(&d.site_xpos[3 * i..3 * i + 3]),
            Some(&d.site_xmat[9 * i..9 * i + 9]),
            None,
        );
        g.take_slot(&start);
        set_material(
            m,
            &mut g,
            m.site_matid[i],
            &m.site_rgba[4 * i..4 * i + 4],
            &opt.flags,
        );
        if g.rgba[3] == 0.0 {
            continue;
        }
        if selected(m.site_bodyid[i]) {
            g.emission += glow;
        }
        if opt.label == super::label::SITE {
            g.label = super::labels::make_label(m, OBJ_SITE, i);
        }
        scn.geoms.push(g);
        if catmask & CAT_DECOR != 0 && opt.frame == super::frame::SITE {
            let (pos, mat) = (&d.site_xpos[3 * i..], &d.site_xmat[9 * i..]);
            let pose = (to3(pos), to9(mat));
            if !add_axes(
                d,
                scn,
                OBJ_UNKNOWN,
                i,
                &pose.0,
                &pose.1,
                frame_length,
                frame_width,
            ) {
                return;
            }
        }
    }
    // each category stops the whole update when the scene is full, as MuJoCo's does
    if !objects::add_cameras(m, d, opt, catmask, scn)
        || !objects::add_lights(m, d, opt, catmask, scn)
    {
        return;
    }
    if opt.flags[flag::TENDON] != 0
        && catmask & CAT_DYNAMIC != 0
        && !super::tendon::add_tendons(m, d, opt, scn)
    {
        return;
    }
    if !objects::add_slider_cranks(m, d, opt, catmask, scn)
        || !super::decor::add_com(m, d, opt, catmask, scn)
        || !objects::add_autoconnect(m, d, opt, catmask, scn)
    {
        return;
    }
    if opt.flags[flag::RANGEFINDER] != 0 && catmask & CAT_DECOR != 0 && !add_sensor_rays(m, d, scn)
    {
        return;
    }
    if !objects::add_applied_forces(m, d, opt, catmask, scn)
        || !objects::add_equalities(m, d, opt, catmask, scn)
    {
        return;
    }
    if catmask & CAT_DECOR != 0 {
        super::contact::add_contacts(m, d, opt, scn);
    }
}

/// The rays of rangefinders (from the site along its z axis to the hit) and the segments of
/// geom-distance `fromto` sensors, as lines in the rangefinder colour; nothing for a sensor
/// that measured nothing. `false` when the scene is full.
fn add_sensor_rays(m: &Model, d: &mut Data, scn: &mut Scene) -> bool {
    for i in 0..m.nsensor {
        let adr = m.sensor_adr[i] as usize;
        let (from, to) = match m.sensor_type[i] {
            SENS_RANGEFINDER => {
                let dst = d.sensordata[adr];
                if dst < 0.0 {
                    continue;
                }
                let s = m.sensor_objid[i] as usize;
                let from = [
                    d.site_xpos[3 * s],
                    d.site_xpos[3 * s + 1],
                    d.site_xpos[3 * s + 2],
                ];
                let z = [
                    d.site_xmat[9 * s + 2],
                    d.site_xmat[9 * s + 5],
                    d.site_xmat[9 * s + 8],
                ];
                (from, core::array::from_fn(|k| from[k] + z[k] * dst))
            }
            SENS_GEOMFROMTO => {
                let ft = &d.sensordata[adr..adr + 6];
                if ft.iter().all(|&x| x == 0.0) {
                    continue;
                }
                ([ft[0], ft[1], ft[2]], [ft[3], ft[4], ft[5]])
            }
            _ => continue,
        };
        let Some(mut g) = start_geom(d, scn, OBJ_UNKNOWN, i, CAT_DECOR) else {
            return false;
        };
        // a line is a valid connector type
        let _ = connector(&mut g, GEOM_LINE, 3.0, &from, &to);
        g.rgba = m.vis.rgba.rangefinder;
        scn.geoms.push(g);
    }
    true
}

/// Where plane `i` is drawn: an infinite plane (a size that is not positive) follows the
/// viewer in whole grid steps, measured from the cameras of the previous update.
fn plane_position(m: &Model, d: &Data, scn: &Scene, i: usize) -> [Real; 3] {
    let mut pos = [
        d.geom_xpos[3 * i],
        d.geom_xpos[3 * i + 1],
        d.geom_xpos[3 * i + 2],
    ];
    if m.geom_size[3 * i] > 0.0 && m.geom_size[3 * i + 1] > 0.0 {
        return pos;
    }
    let (c0, c1) = (&scn.camera[0].pos, &scn.camera[1].pos);
    let vec: [Real; 3] =
        core::array::from_fn(|j| 0.5 * Real::from(c0[j] + c1[j]) - d.geom_xpos[3 * i + j]);
    let xmat = &d.geom_xmat[9 * i..9 * i + 9];
    for k in 0..2 {
        if m.geom_size[3 * i + k] > 0.0 {
            continue;
        }
        // column k of the geom frame
        let axis = [xmat[k], xmat[3 + k], xmat[6 + k]];
        let zfar = Real::from(m.vis.map.zfar) * m.stat.extent;
        let matid = m.geom_matid[i];
        let step = match usize::try_from(matid) {
            Ok(mat) if m.mat_texrepeat[2 * mat + k] > 0.0 => {
                Real::from(2.0 / m.mat_texrepeat[2 * mat + k])
            }
            _ => 2.1 * zfar / (MAXPLANEGRID - 2.0),
        };
        let dx = dot3(&vec, &axis);
        let dx = 2.0 * step * Real::from(round(0.5 * dx / step));
        for j in 0..3 {
            pos[j] += axis[j] * dx;
        }
    }
    pos
}

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

use mjrs_core::real::PI;

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

/// The lights (`mjv_makeLights`): the headlight at the viewer looking along the gaze, then
/// the model's active lights, at most [`MAXLIGHT`].
fn make_lights(m: &Model, d: &Data, scn: &mut Scene) {
    scn.lights.clear();
    if m.vis.headlight.active != 0 {
        let (pos, dir, _) = scn.camera_in_model();
        let h = &m.vis.headlight;
        scn.lights.push(VisLight {
            headlight: 1,
            directional: 1,
            pos: n2f(&pos),
            dir: n2f(&dir),
            ambient: h.ambient,
            diffuse: h.diffuse,
            specular: h.specular,
            ..VisLight::default()
        });
    }
    for i in 0..m.nlight {
        if scn.lights.len() >= MAXLIGHT {
            break;
        }
        if m.light_active[i] == 0 {
            continue;
        }
        let directional = m.light_directional[i];
        let mut light = VisLight {
            directional,
            castshadow: m.light_castshadow[i],
            bulbradius: m.light_bulbradius[i],
            ambient: n2f_f(&m.light_ambient[3 * i..]),
            diffuse: n2f_f(&m.light_diffuse[3 * i..]),
            specular: n2f_f(&m.light_specular[3 * i..]),
            pos: n2f(&d.light_xpos[3 * i..3 * i + 3]),
            dir: n2f(&d.light_xdir[3 * i..3 * i + 3]),
            ..VisLight::default()
        };
        if directional == 0 {
            light.attenuation = n2f_f(&m.light_attenuation[3 * i..]);
            light.exponent = m.light_exponent[i];
            light.cutoff = m.light_cutoff[i];
        }
        scn.lights.push(light);
    }
}

/// The first three floats of `v`.
fn n2f_f(v: &[f32]) -> [f32; 3] {
    [v[0], v[1], v[2]]
}
