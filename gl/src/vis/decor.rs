//! Decorations of bodies and joints in the scene (the parts of MuJoCo's `mjv_addGeoms` before
//! and after the model geoms): equivalent-inertia boxes, world and body frames, joint axes,
//! centers of mass of the kinematic trees, bounding volumes, sensor rays.

use super::geom::{add_axes, body_category, connector, group, init_geom, start_geom, to3, to9};
use super::{flag, frame, label, Scene, VisOption, CAT_DECOR};
use mjrs_core::math::scalar;
use mjrs_core::types::*;
use mjrs_core::{Data, Model, Real};

/// The identity rotation, row-major.
const IDENTITY: [Real; 9] = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];

/// Boxes (or ellipsoids, with `ellipsoidinertia`) of the bodies' equivalent inertia, in their
/// inertial frames, optionally scaled to the density of water; `false` when the scene is full.
pub(super) fn add_inertia(
    m: &Model,
    d: &mut Data,
    opt: &VisOption,
    pert: &super::Perturb,
    catmask: i32,
    scn: &mut Scene,
) -> bool {
    if opt.flags[flag::INERTIA] == 0 {
        return true;
    }
    let ellipsoid = m.vis.global.ellipsoidinertia == 1;
    for i in 1..m.nbody {
        let category = body_category(m, i);
        if m.body_mass[i] <= mjrs_core::real::MINVAL || category & catmask == 0 {
            continue;
        }
        // the body's category decides whether it is shown; the box itself is a decoration
        let Some(start) = start_geom(d, scn, OBJ_BODY, i, CAT_DECOR) else {
            return false;
        };
        let inertia = &m.body_inertia[3 * i..3 * i + 3];
        let mass = m.body_mass[i];
        let scale = scalar::sqrt(if ellipsoid { 5.0 } else { 3.0 });
        let half = |a: usize, b: usize, c: usize| {
            scalar::sqrt((inertia[b] + inertia[c] - inertia[a]) / (2.0 * mass)) * scale
        };
        let mut sz = [half(0, 1, 2), half(1, 0, 2), half(2, 0, 1)];
        if opt.flags[flag::SCLINERTIA] != 0 {
            // sizes scaled so that a body of density 1000 keeps its box
            let volume = if ellipsoid {
                4.0 / 3.0 * mjrs_core::real::PI
            } else {
                8.0
            } * sz[0]
                * sz[1]
                * sz[2];
            let density = mass / volume.max(mjrs_core::real::MINVAL);
            let s = scalar::pow(density * 0.001, 1.0 / 3.0);
            for x in &mut sz {
                *x *= s;
            }
        }
        let type_ = if ellipsoid { GEOM_ELLIPSOID } else { GEOM_BOX };
        let mut g = init_geom(
            type_,
            Some(&sz),
            Some(&d.xipos[3 * i..3 * i + 3]),
            Some(&d.ximat[9 * i..9 * i + 9]),
            Some(&m.vis.rgba.inertia),
        );
        g.take_slot(&start);
        if pert.select == i as i32 {
            g.emission += m.vis.global.glow;
        }
        if opt.label == label::BODY || (opt.label == label::SELECTION && pert.select == i as i32) {
            g.label = super::labels::make_label(m, OBJ_BODY, i);
        }
        scn.geoms.push(g);
    }
    true
}

/// The world frame (`frame::WORLD`, twice as large) or every body frame (`frame::BODY`; at
/// the inertial frame when inertia is shown); `false` when the scene is full.
pub(super) fn add_body_frames(
    m: &Model,
    d: &mut Data,
    opt: &VisOption,
    catmask: i32,
    scn: &mut Scene,
) -> bool {
    if catmask & CAT_DECOR == 0 {
        return true;
    }
    let bodies = match opt.frame {
        frame::WORLD => 0..1,
        frame::BODY => 1..m.nbody,
        _ => return true,
    };
    // MuJoCo keeps the mean size as a float here, so these products are float products
    let scl = m.stat.meansize as f32;
    let inertial = opt.flags[flag::INERTIA] != 0;
    for i in bodies {
        let factor = if i == 0 { 2.0 } else { 1.0 };
        let length = Real::from(m.vis.scale.framelength * scl * factor);
        let width = Real::from(m.vis.scale.framewidth * scl * factor);
        if i > 0 && body_category(m, i) & !catmask != 0 {
            continue;
        }
        let (pos, mat) = if inertial {
            (&d.xipos[3 * i..3 * i + 3], &d.ximat[9 * i..9 * i + 9])
        } else {
            (&d.xpos[3 * i..3 * i + 3], &d.xmat[9 * i..9 * i + 9])
        };
        let (pos, mat) = (to3(pos), to9(mat));
        if !add_axes(d, scn, OBJ_UNKNOWN, i, &pos, &mat, length, width) {
            return false;
        }
    }
    true
}

/// The joints of the shown groups: a box at a free joint, a sphere at a ball joint, an arrow
/// along a slide axis and a one-headed arrow along a hinge axis; `false` when the scene is full.
pub(super) fn add_joints(
    m: &Model,
    d: &mut Data,
    opt: &VisOption,
    catmask: i32,
    scn: &mut Scene,
) -> bool {
    if opt.flags[flag::JOINT] == 0 || catmask & CAT_DECOR == 0 {
        return true;
    }
    let scl = m.stat.meansize as f32; // a float in MuJoCo, as for frames
    let length = Real::from(m.vis.scale.jointlength * scl);
    let width = Real::from(m.vis.scale.jointwidth * scl);
    for i in 0..m.njnt {
        if opt.jointgroup[group(m.jnt_group[i])] == 0 {
            continue;
        }
        let Some(mut g) = start_geom(d, scn, OBJ_JOINT, i, CAT_DECOR) else {
            return false;
        };
        let body = m.jnt_bodyid[i] as usize;
        let anchor = to3(&d.xanchor[3 * i..3 * i + 3]);
        match m.jnt_type[i] {
            JNT_FREE | JNT_BALL => {
                g.type_ = if m.jnt_type[i] == JNT_FREE {
                    GEOM_BOX
                } else {
                    GEOM_SPHERE
                };
                g.size = [(0.3 * length) as f32; 3];
                g.pos = anchor.map(|x| x as f32);
                g.mat = core::array::from_fn(|k| d.xmat[9 * body + k] as f32);
            }
            _ => {
                let axis = &d.xaxis[3 * i..3 * i + 3];
                let to = [
                    anchor[0] + axis[0] * length,
                    anchor[1] + axis[1] * length,
                    anchor[2] + axis[2] * length,
                ];
                let type_ = if m.jnt_type[i] == JNT_SLIDE {
                    GEOM_ARROW
                } else {
                    GEOM_ARROW1
                };
                let _ = connector(&mut g, type_, width, &anchor, &to);
            }
        }
        g.rgba = m.vis.rgba.joint;
        if opt.label == label::JOINT {
            g.label = super::labels::make_label(m, OBJ_JOINT, i);
        }
        scn.geoms.push(g);
    }
    true
}

/// A sphere at the center of mass of every kinematic tree; `false` when the scene is full.
pub(super) fn add_com(
    m: &Model,
    d: &mut Data,
    opt: &VisOption,
    catmask: i32,
    scn: &mut Scene,
) -> bool {
    if opt.flags[flag::COM] == 0 || catmask & CAT_DECOR == 0 {
        return true;
    }
    let size = m.stat.meansize as f32 * m.vis.scale.com;
    for i in 1..m.nbody {
        if m.body_rootid[i] as usize != i {
            continue;
        }
        let Some(mut g) = start_geom(d, scn, OBJ_UNKNOWN, i, CAT_DECOR) else {
            return false;
        };
        g.type_ = GEOM_SPHERE;
        g.size = [size; 3];
        g.pos = core::array::from_fn(|k| d.subtree_com[3 * i + k] as f32);
        g.mat = IDENTITY.map(|x| x as f32);
        g.rgba = m.vis.rgba.com;
        scn.geoms.push(g);
    }
    true
}

/// Whether bounding volume `i` is drawn: at the depth the options ask for, or a leaf above it.
pub(super) fn bvh_shown(m: &Model, opt: &VisOption, i: usize) -> bool {
    let leaf = m.bvh_child[2 * i] == -1 && m.bvh_child[2 * i + 1] == -1;
    m.bvh_depth[i] == opt.bvh_depth || (leaf && m.bvh_depth[i] < opt.bvh_depth)
}

/// The colour of a bounding volume: red where collision detection was active, when the model
/// marks active volumes.
pub(super) fn bvh_color(m: &Model, active: u8) -> [f32; 4] {
    if m.vis.global.bvactive != 0 && active != 0 {
        m.vis.rgba.bvactive
    } else {
        m.vis.rgba.bv
    }
}

/// Boxes of the bodies' bounding-volume hierarchies (`BODYBVH`) at the depth the options ask
/// for. A full scene stops the hierarchy without a warning, as in MuJoCo.
pub(super) fn add_body_bvh(m: &Model, d: &mut Data, opt: &VisOption, scn: &mut Scene) {
    let shown = |i: usize| bvh_shown(m, opt, i);
    let color = |active: u8| bvh_color(m, active);
    if opt.flags[flag::BODYBVH] != 0 {
        for i in 0..m.nbvhstatic {
            if scn.geoms.len() >= scn.maxgeom {
                break;
            }
            if !shown(i) {
                continue;
            }
            // the body whose hierarchy holds node i
            let mut body = 0;
            while i as i64 >= i64::from(m.body_bvhadr[body]) + i64::from(m.body_bvhnum[body]) {
                body += 1;
                if body >= m.nbody {
                    break;
                }
            }
            if body >= m.nbody {
                break;
            }
            let leaf = m.bvh_child[2 * i] == -1 && m.bvh_child[2 * i + 1] == -1;
            let geom = m.bvh_nodeid[i].max(0) as usize;
            let (xpos, xmat, aabb) = if leaf {
                (
                    to3(&d.geom_xpos[3 * geom..]),
                    to9(&d.geom_xmat[9 * geom..]),
                    &m.geom_aabb[6 * geom..6 * geom + 6],
                )
            } else {
                (
                    to3(&d.xipos[3 * body..]),
                    to9(&d.ximat[9 * body..]),
                    &m.bvh_aabb[6 * i..6 * i + 6],
                )
            };
            let rgba = color(d.bvh_active[i]);
            if !add_box(d, scn, i, &xpos, &xmat, aabb, &rgba) {
                return;
            }
        }
    }
}

/// Boxes of the meshes' bounding-volume hierarchies (`MESHBVH`; only the volumes the last
/// collision touched when `bvactive` is on). A full scene stops without a warning.
pub(super) fn add_mesh_bvh(m: &Model, d: &mut Data, opt: &VisOption, scn: &mut Scene) {
    let mark_active = m.vis.global.bvactive != 0;
    let shown = |i: usize| bvh_shown(m, opt, i);
    let color = |active: u8| bvh_color(m, active);
    if opt.flags[flag::MESHBVH] != 0 {
        for geom in 0..m.ngeom {
            let Ok(mesh) = usize::try_from(m.geom_dataid[geom]) else {
                continue;
            };
            if mesh >= m.nmesh {
                continue; // a height field's data id; MuJoCo would read past the meshes here
            }
            let adr = m.mesh_bvhadr[mesh].max(0) as usize;
            for i in adr..adr + m.mesh_bvhnum[mesh].max(0) as usize {
                if scn.geoms.len() >= scn.maxgeom {
                    break;
                }
                if !shown(i) || (mark_active && d.bvh_active[i] == 0) {
                    continue;
                }
                let rgba = color(d.bvh_active[i]);
                let (xpos, xmat) = (to3(&d.geom_xpos[3 * geom..]), to9(&d.geom_xmat[9 * geom..]));
                if !add_box(
                    d,
                    scn,
                    i,
                    &xpos,
                    &xmat,
                    &m.bvh_aabb[6 * i..6 * i + 6],
                    &rgba,
                ) {
                    return;
                }
            }
        }
    }
}

/// A line box for bounding volume `i`: `aabb` (center, half sizes) in the frame `xpos, xmat`.
fn add_box(
    d: &mut Data,
    scn: &mut Scene,
    i: usize,
    xpos: &[Real; 3],
    xmat: &[Real; 9],
    aabb: &[Real],
    rgba: &[f32; 4],
) -> bool {
    let Some(start) = start_geom(d, scn, OBJ_UNKNOWN, i, CAT_DECOR) else {
        return false;
    };
    let mut pos = mjrs_core::math::mat::rot_vec_mat(&to3(aabb), xmat);
    for k in 0..3 {
        pos[k] += xpos[k];
    }
    let mut g = init_geom(
        GEOM_LINEBOX,
        Some(&aabb[3..6]),
        Some(&pos),
        Some(xmat),
        Some(rgba),
    );
    g.take_slot(&start);
    scn.geoms.push(g);
    true
}

/// The rays of rangefinders (from the site along its z axis to the hit) and the segments of
/// geom-distance `fromto` sensors, as lines in the rangefinder colour; nothing for a sensor
/// that measured nothing. `false` when the scene is full.
pub(super) fn add_sensor_rays(m: &Model, d: &mut Data, scn: &mut Scene) -> bool {
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
