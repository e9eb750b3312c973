//! Model objects and interaction drawn as decorations (the rest of MuJoCo's `mjv_addGeoms`):
//! cameras and their frustums, lights, slider-crank rods, automatic connectors, applied forces,
//! connect and weld constraints, the selection point and the perturbation handles.

use super::geom::{add_axes, connector, frame_size, init_geom, start_geom, to3, to9};
use super::interact::pert;
use super::{flag, frame, label, Perturb, Scene, VisOption, CAT_DECOR, CAT_DYNAMIC};
use mjrs_core::math::mat::rot_vec_mat;
use mjrs_core::math::quat::{quat2mat, quat_z2vec};
use mjrs_core::math::scalar;
use mjrs_core::math::vec::{cross, dot3, norm3, normalize3};
use mjrs_core::types::*;
use mjrs_core::{Data, Model, Real};

/// The mean size as MuJoCo keeps it in `mjv_addGeoms`: a float.
fn scl(m: &Model) -> f32 {
    m.stat.meansize as f32
}

/// Perturbation handles of the selected body (MuJoCo draws them after the inertia boxes): a
/// capsule from the selection point to its reference and a sphere there when translating, a
/// box at the reference orientation when rotating; `false` when the scene is full.
pub(super) fn add_perturb(
    m: &Model,
    d: &mut Data,
    opt: &VisOption,
    p: &Perturb,
    catmask: i32,
    scn: &mut Scene,
) -> bool {
    let sel = p.select;
    if opt.flags[flag::PERTOBJ] == 0
        || catmask & CAT_DECOR == 0
        || sel <= 0
        || sel as usize >= m.nbody
    {
        return true;
    }
    let i = sel as usize;
    let active = p.active | p.active2;
    let mat = quat2mat(&p.refquat);
    if active & pert::TRANSLATE != 0 {
        let Some(mut g) = start_geom(d, scn, OBJ_UNKNOWN, i, CAT_DECOR) else {
            return false;
        };
        let selpos = super::interact::selection_point(d, i, &p.localpos);
        let width = Real::from(scl(m) * m.vis.scale.constraint);
        let _ = connector(&mut g, GEOM_CAPSULE, width, &selpos, &p.refselpos);
        let rgba = mix_color(
            &m.vis.rgba.constraint,
            p.active & pert::TRANSLATE != 0,
            p.active2 & pert::TRANSLATE != 0,
        );
        g.rgba = rgba;
        scn.geoms.push(g);
        let Some(start) = start_geom(d, scn, OBJ_UNKNOWN, i, CAT_DECOR) else {
            return false;
        };
        let size = [2.0 * width; 3];
        scn.geoms.push(retag(
            init_geom(
                GEOM_SPHERE,
                Some(&size),
                Some(&p.refselpos),
                Some(&mat),
                Some(&rgba),
            ),
            &start,
        ));
    }
    if active & pert::ROTATE != 0 {
        let Some(start) = start_geom(d, scn, OBJ_UNKNOWN, i, CAT_DECOR) else {
            return false;
        };
        let rgba = mix_color(
            &m.vis.rgba.inertia,
            p.active & pert::ROTATE != 0,
            p.active2 & pert::ROTATE != 0,
        );
        let (size, mut pos) = if m.body_bvhnum[i] != 0 {
            let aabb = &m.bvh_aabb[6 * m.body_bvhadr[i] as usize..];
            let ximat = to9(&d.ximat[9 * i..]);
            ([aabb[3], aabb[4], aabb[5]], rot_vec_mat(&to3(aabb), &ximat))
        } else {
            ([Real::from(scl(m)); 3], [0.0; 3])
        };
        for k in 0..3 {
            pos[k] += d.xipos[3 * i + k];
        }
        scn.geoms.push(retag(
            init_geom(GEOM_BOX, Some(&size), Some(&pos), Some(&mat), Some(&rgba)),
            &start,
        ));
    }
    true
}

/// The colour of a perturbation handle (MuJoCo's `mixcolor`): red and green swap roles for
/// the secondary perturbation.
fn mix_color(reference: &[f32; 4], primary: bool, secondary: bool) -> [f32; 4] {
    let mut rgba = [0.0, 0.0, reference[2], reference[3]];
    rgba[0] = if primary { reference[0] } else { 0.0 };
    if secondary {
        rgba[0] = rgba[0].max(reference[1]);
    }
    rgba[1] = if primary { reference[1] } else { 0.0 };
    if secondary {
        rgba[1] = rgba[1].max(reference[0]);
    }
    rgba
}

/// `g` in the slot reserved by `start`.
fn retag(mut g: super::VisGeom, start: &super::VisGeom) -> super::VisGeom {
    g.take_slot(start);
    g
}

/// A small sphere at the selection point of the selected body; `false` when the scene is full.
pub(super) fn add_selection_point(
    m: &Model,
    d: &mut Data,
    opt: &VisOption,
    p: &Perturb,
    catmask: i32,
    scn: &mut Scene,
) -> bool {
    if catmask & CAT_DECOR == 0 || p.select <= 0 || opt.flags[flag::SELECT] == 0 {
        return true;
    }
    let Some(mut g) = start_geom(d, scn, OBJ_UNKNOWN, 0, CAT_DECOR) else {
        return false;
    };
    let selpos = super::interact::selection_point(d, p.select as usize, &p.localpos);
    g.type_ = GEOM_SPHERE;
    g.size = [scl(m) * m.vis.scale.selectpoint; 3];
    g.pos = selpos.map(|x| x as f32);
    g.mat = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
    g.rgba = m.vis.rgba.selectpoint;
    if opt.label == label::SELPNT {
        let f = |x: Real| super::labels::printf("%.3f", x);
        let l = &p.localpos;
        g.label = super::labels::truncate(format!(
            "{} {} {} (local {} {} {})",
            f(selpos[0]),
            f(selpos[1]),
            f(selpos[2]),
            f(l[0]),
            f(l[1]),
            f(l[2])
        ));
    }
    scn.geoms.push(g);
    true
}

/// Each camera as a box with a darker lens, with its frame when asked; then the frustums of
/// cameras with a sensor size. `false` when the scene is full.
pub(super) fn add_cameras(
    m: &Model,
    d: &mut Data,
    opt: &VisOption,
    catmask: i32,
    scn: &mut Scene,
) -> bool {
    if opt.flags[flag::CAMERA] == 0 {
        return true;
    }
    if catmask & CAT_DECOR != 0 {
        let s = scl(m) * m.vis.scale.camera;
        // MuJoCo's object type lingers as "unknown" after a camera frame is drawn
        let mut objtype = OBJ_CAMERA;
        for i in 0..m.ncam {
            let pos = to3(&d.cam_xpos[3 * i..]);
            let mat = to9(&d.cam_xmat[9 * i..]);
            let Some(mut g) = start_geom(d, scn, objtype, i, CAT_DECOR) else {
                return false;
            };
            g.type_ = GEOM_BOX;
            if opt.label == label::CAMERA {
                g.label = super::labels::make_label(m, OBJ_CAMERA, i);
            }
            g.size = [
                Real::from(s) * 1.0,
                Real::from(s) * 0.8,
                Real::from(s) * 0.4,
            ]
            .map(|x| x as f32);
            g.pos = pos.map(|x| x as f32);
            g.mat = mat.map(|x| x as f32);
            g.rgba = m.vis.rgba.camera;
            scn.geoms.push(g);
            let Some(mut g) = start_geom(d, scn, objtype, i, CAT_DECOR) else {
                return false;
            };
            let back = Real::from(s) * 0.6;
            g.pos = core::array::from_fn(|k| (pos[k] - back * mat[3 * k + 2]) as f32);
            g.type_ = GEOM_CYLINDER;
            g.size = [
                Real::from(s) * 0.4,
                Real::from(s) * 0.4,
                Real::from(s) * 0.3,
            ]
            .map(|x| x as f32);
            g.mat = mat.map(|x| x as f32);
            g.rgba = m.vis.rgba.camera;
            for c in &mut g.rgba[..3] {
                *c *= 0.5;
            }
            scn.geoms.push(g);
            if opt.frame == frame::CAMERA {
                objtype = OBJ_UNKNOWN;
                let (length, width) = frame_size(m);
                if !add_axes(d, scn, OBJ_UNKNOWN, i, &pos, &mat, length, width) {
                    return false;
                }
            }
        }
    }
    add_frustums(m, d, scn)
}

/// The view frustum of every camera with a sensor size: four pairs of triangles and twelve
/// edges; `false` when the scene is full.
fn add_frustums(m: &Model, d: &mut Data, scn: &mut Scene) -> bool {
    let rgba = m.vis.rgba.frustum;
    let znear = Real::from(m.vis.map.znear) * m.stat.extent;
    let zfar = Real::from(m.vis.scale.frustum * scl(m));
    for i in 0..m.ncam {
        if m.cam_sensorsize[2 * i + 1] == 0.0 {
            continue;
        }
        let k = &m.cam_intrinsic[4 * i..4 * i + 4];
        let sensor = &m.cam_sensorsize[2 * i..2 * i + 2];
        let near = znear as f32;
        let mut zhor = [
            near / k[0] * (sensor[0] / 2.0 - k[2]),
            near / k[0] * (sensor[0] / 2.0 + k[2]),
        ];
        let mut zver = [
            near / k[1] * (sensor[1] / 2.0 - k[3]),
            near / k[1] * (sensor[1] / 2.0 + k[3]),
        ];
        let pos = to3(&d.cam_xpos[3 * i..]);
        let xm = &d.cam_xmat[9 * i..9 * i + 9];
        let (x, y, z) = (
            [xm[0], xm[3], xm[6]],
            [xm[1], xm[4], xm[7]],
            [xm[2], xm[5], xm[8]],
        );
        let plane = |depth: Real, zhor: &[f32; 2], zver: &[f32; 2]| -> [[Real; 3]; 4] {
            let center: [Real; 3] = core::array::from_fn(|j| pos[j] + z[j] * -depth);
            let h = [
                -Real::from(zhor[0]),
                Real::from(zhor[1]),
                Real::from(zhor[1]),
                -Real::from(zhor[0]),
            ];
            let v = [
                -Real::from(zver[0]),
                -Real::from(zver[0]),
                Real::from(zver[1]),
                Real::from(zver[1]),
            ];
            core::array::from_fn(|c| {
                let mut p: [Real; 3] = core::array::from_fn(|j| center[j] + x[j] * h[c]);
                for j in 0..3 {
                    p[j] += y[j] * v[c];
                }
                p
            })
        };
        let vnear = plane(znear, &zhor, &zver);
        for t in zhor.iter_mut().chain(zver.iter_mut()) {
            *t = (Real::from(*t) * (zfar / znear)) as f32;
        }
        let vfar = plane(zfar, &zhor, &zver);
        for e in 0..4 {
            let n = (e + 1) % 4;
            let sides = [
                (
                    sub(&vfar[e], &vnear[e]),
                    sub(&vnear[n], &vnear[e]),
                    vnear[e],
                ),
                (sub(&vfar[n], &vfar[e]), sub(&vnear[n], &vfar[e]), vfar[e]),
            ];
            for (mut a, mut b, origin) in sides {
                let Some(start) = start_geom(d, scn, OBJ_CAMERA, i, CAT_DECOR) else {
                    return false;
                };
                let mut c = cross(&a, &b);
                let tri = [normalize3(&mut a), normalize3(&mut b), normalize3(&mut c)];
                let mat = [a[0], b[0], c[0], a[1], b[1], c[1], a[2], b[2], c[2]];
                scn.geoms.push(retag(
                    init_geom(
                        GEOM_TRIANGLE,
                        Some(&tri),
                        Some(&origin),
                        Some(&mat),
                        Some(&rgba),
                    ),
                    &start,
                ));
            }
            for (from, to) in [
                (&vnear[e], &vnear[n]),
                (&vfar[e], &vfar[n]),
                (&vnear[e], &vfar[e]),
            ] {
                let Some(mut g) = start_geom(d, scn, OBJ_CAMERA, i, CAT_DECOR) else {
                    return false;
                };
                let _ = connector(&mut g, GEOM_LINE, 3.0, from, to);
                g.rgba = rgba;
                scn.geoms.push(g);
            }
        }
    }
    true
}

fn sub(a: &[Real; 3], b: &[Real; 3]) -> [Real; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// Each light as a cylinder set back along its direction, with its frame when asked; `false`
/// when the scene is full.
pub(super) fn add_lights(
    m: &Model,
    d: &mut Data,
    opt: &VisOption,
    catmask: i32,
    scn: &mut Scene,
) -> bool {
    if opt.flags[flag::LIGHT] == 0 || catmask & CAT_DECOR == 0 {
        return true;
    }
    let s = scl(m) * m.vis.scale.light;
    let mut objtype = OBJ_LIGHT;
    for i in 0..m.nlight {
        let dir = to3(&d.light_xdir[3 * i..]);
        let mat = quat2mat(&quat_z2vec(&dir));
        let back = Real::from(-scl(m) * m.vis.scale.light) - 0.0001;
        let pos: [Real; 3] = core::array::from_fn(|k| d.light_xpos[3 * i + k] + dir[k] * back);
        let Some(mut g) = start_geom(d, scn, objtype, i, CAT_DECOR) else {
            return false;
        };
        g.type_ = GEOM_CYLINDER;
        g.size = [
            Real::from(s) * 0.8,
            Real::from(s) * 0.8,
            Real::from(s) * 1.0,
        ]
        .map(|x| x as f32);
        g.pos = pos.map(|x| x as f32);
        g.mat = mat.map(|x| x as f32);
        g.rgba = m.vis.rgba.light;
        if opt.label == label::LIGHT {
            g.label = super::labels::make_label(m, OBJ_LIGHT, i);
        }
        scn.geoms.push(g);
        if opt.frame == frame::LIGHT {
            objtype = OBJ_UNKNOWN;
            let (length, width) = frame_size(m);
            let at = to3(&d.light_xpos[3 * i..]);
            if !add_axes(d, scn, OBJ_UNKNOWN, i, &at, &mat, length, width) {
                return false;
            }
        }
    }
    true
}

/// The slider and crank rods of slider-crank actuators (the crank red when the linkage cannot
/// close); `false` when the scene is full.
pub(super) fn add_slider_cranks(
    m: &Model,
    d: &mut Data,
    opt: &VisOption,
    catmask: i32,
    scn: &mut Scene,
) -> bool {
    if catmask & CAT_DYNAMIC == 0 {
        return true;
    }
    let width = Real::from(scl(m) * m.vis.scale.slidercrank);
    for i in 0..m.nu {
        if m.actuator_trntype[i] != TRN_SLIDERCRANK {
            continue;
        }
        let (crank, slider) = (
            m.actuator_trnid[2 * i] as usize,
            m.actuator_trnid[2 * i + 1] as usize,
        );
        let rod = m.actuator_cranklength[i];
        let axis = [
            d.site_xmat[9 * slider + 2],
            d.site_xmat[9 * slider + 5],
            d.site_xmat[9 * slider + 8],
        ];
        let spos = to3(&d.site_xpos[3 * slider..]);
        let cpos = to3(&d.site_xpos[3 * crank..]);
        let vec = sub(&cpos, &spos);
        let along = dot3(&vec, &axis);
        let mut det = along * along + rod * rod - dot3(&vec, &vec);
        let broken = det < 0.0;
        if broken {
            det = 0.0;
        }
        let len = along - scalar::sqrt(det);
        let end: [Real; 3] = core::array::from_fn(|k| axis[k] * len + spos[k]);
        let Some(mut g) = start_geom(d, scn, OBJ_ACTUATOR, i, CAT_DYNAMIC) else {
            return false;
        };
        let _ = connector(&mut g, GEOM_CYLINDER, width, &spos, &end);
        g.rgba = m.vis.rgba.slidercrank;
        if opt.label == label::ACTUATOR {
            g.label = super::labels::make_label(m, OBJ_ACTUATOR, i);
        }
        scn.geoms.push(g);
        let Some(mut g) = start_geom(d, scn, OBJ_ACTUATOR, i, CAT_DYNAMIC) else {
            return false;
        };
        let _ = connector(&mut g, GEOM_CAPSULE, width / 2.0, &end, &cpos);
        g.rgba = if broken {
            m.vis.rgba.crankbroken
        } else {
            m.vis.rgba.slidercrank
        };
        scn.geoms.push(g);
    }
    true
}

/// Capsules from each body's center of mass through its joints (last first) to its parent's
/// center of mass; `false` when the scene is full.
pub(super) fn add_autoconnect(
    m: &Model,
    d: &mut Data,
    opt: &VisOption,
    catmask: i32,
    scn: &mut Scene,
) -> bool {
    if opt.flags[flag::AUTOCONNECT] == 0 || catmask & CAT_DECOR == 0 {
        return true;
    }
    let width = Real::from(scl(m) * m.vis.scale.connect);
    for i in 1..m.nbody {
        let parent = m.body_parentid[i] as usize;
        if parent == 0 {
            continue;
        }
        let mut cur = to3(&d.xipos[3 * i..]);
        let first = m.body_jntadr[i].max(0) as usize;
        let joints = (first..first + m.body_jntnum[i] as usize).rev();
        let targets: Vec<[Real; 3]> = joints
            .map(|j| to3(&d.xanchor[3 * j..]))
            .chain([to3(&d.xipos[3 * parent..])])
            .collect();
        for next in targets {
            let Some(mut g) = start_geom(d, scn, OBJ_UNKNOWN, i, CAT_DECOR) else {
                return false;
            };
            let _ = connector(&mut g, GEOM_CAPSULE, width, &cur, &next);
            g.rgba = m.vis.rgba.connect;
            scn.geoms.push(g);
            cur = next;
        }
    }
    true
}

/// Arrows of the forces applied to bodies (`xfrc_applied`), from their centers of mass;
/// `false` when the scene is full.
pub(super) fn add_applied_forces(
    m: &Model,
    d: &mut Data,
    opt: &VisOption,
    catmask: i32,
    scn: &mut Scene,
) -> bool {
    if opt.flags[flag::PERTFORCE] == 0 || catmask & CAT_DECOR == 0 {
        return true;
    }
    let scale = Real::from(m.vis.map.force) / m.stat.meanmass;
    let width = Real::from(m.vis.scale.forcewidth * scl(m));
    for i in 1..m.nbody {
        let frc = to3(&d.xfrc_applied[6 * i..]);
        let torque = to3(&d.xfrc_applied[6 * i + 3..]);
        if frc.iter().chain(&torque).all(|&x| x == 0.0) || norm3(&frc) <= mjrs_core::real::MINVAL {
            continue;
        }
        let from = to3(&d.xipos[3 * i..]);
        let to: [Real; 3] = core::array::from_fn(|k| from[k] + frc[k] * scale);
        let Some(mut g) = start_geom(d, scn, OBJ_UNKNOWN, i, CAT_DECOR) else {
            return false;
        };
        let _ = connector(&mut g, GEOM_ARROW, width, &from, &to);
        g.rgba = m.vis.rgba.force;
        scn.geoms.push(g);
    }
    true
}

/// The two anchor spheres of every active connect and weld constraint; `false` when the scene
/// is full.
pub(super) fn add_equalities(
    m: &Model,
    d: &mut Data,
    opt: &VisOption,
    catmask: i32,
    scn: &mut Scene,
) -> bool {
    if opt.flags[flag::CONSTRAINT] == 0 || catmask & CAT_DECOR == 0 {
        return true;
    }
    let size = [Real::from(scl(m) * m.vis.scale.constraint); 3];
    for i in 0..m.neq {
        let ty = m.eq_type[i];
        if d.eq_active[i] == 0 || (ty != EQ_CONNECT && ty != EQ_WELD) {
            continue;
        }
        let (j, k) = (m.eq_obj1id[i] as usize, m.eq_obj2id[i] as usize);
        let data = &m.eq_data[NEQDATA * i..NEQDATA * (i + 1)];
        let (off1, off2) = if ty == EQ_WELD { (3, 0) } else { (0, 3) };
        for (body, off, rgba) in [
            (j, off1, &m.vis.rgba.connect),
            (k, off2, &m.vis.rgba.constraint),
        ] {
            let xmat = to9(&d.xmat[9 * body..]);
            let mut p = rot_vec_mat(&to3(&data[off..]), &xmat);
            for c in 0..3 {
                p[c] += d.xpos[3 * body + c];
            }
            let Some(start) = start_geom(d, scn, OBJ_EQUALITY, i, CAT_DECOR) else {
                return false;
            };
            let sphere = init_geom(GEOM_SPHERE, Some(&size), Some(&p), Some(&xmat), Some(rgba));
            let mut g = retag(sphere, &start);
            if opt.label == label::CONSTRAINT {
                g.label = super::labels::make_label(m, OBJ_EQUALITY, i);
            }
            scn.geoms.push(g);
        }
    }
    true
}
