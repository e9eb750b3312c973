//! Actuators in the scene (MuJoCo's actuator drawing in `mjv_addGeoms`): each transmission
//! drawn in a colour between the negative, neutral and positive actuator colours by where the
//! control (or, with activations shown, the activation) lies in its range.

use super::geom::{connector, group, init_geom, set_material, start_geom, to3, to9};
use super::{flag, Scene, VisOption, CAT_DECOR};
use mjrs_core::real::MINVAL;
use mjrs_core::types::*;
use mjrs_core::{Data, Model, Real};

/// Adds the actuators of the shown groups; `false` when the scene is full.
pub(super) fn add_actuators(
    m: &Model,
    d: &mut Data,
    opt: &VisOption,
    catmask: i32,
    scn: &mut Scene,
) -> bool {
    if opt.flags[flag::ACTUATOR] == 0 || catmask & CAT_DECOR == 0 {
        return true;
    }
    let scl = m.stat.meansize as f32;
    for i in 0..m.nu {
        if opt.actuatorgroup[group(m.actuator_group[i])] == 0
            || mjrs_core::support::actuator_disabled(m, i)
        {
            continue;
        }
        let rgba = actuator_color(m, d, opt, i);
        let j = m.actuator_trnid[2 * i] as usize;
        let added = match m.actuator_trntype[i] {
            TRN_JOINT | TRN_JOINTINPARENT | TRN_SITE => {
                let label = opt.label == super::label::ACTUATOR;
                joint_or_site(m, d, scn, (i, j), scl, &rgba, label)
            }
            TRN_BODY => body_geoms(m, d, scn, i, j, &rgba),
            TRN_TENDON if d.ten_wrapnum[j] != 0 => tendon(m, d, opt, scn, i, j, &rgba),
            _ => true,
        };
        if !added {
            return false;
        }
    }
    true
}

/// The colour of actuator `i`: negative, neutral and positive colours mixed by where its
/// control or activation lies in its range extended to include zero.
fn actuator_color(m: &Model, d: &Data, opt: &VisOption, i: usize) -> [f32; 4] {
    let activation = opt.flags[flag::ACTIVATION] != 0;
    let (mut rmin, mut rmax) = (-1.0, 1.0);
    if m.actuator_ctrllimited[i] != 0 {
        (rmin, rmax) = (m.actuator_ctrlrange[2 * i], m.actuator_ctrlrange[2 * i + 1]);
    } else if activation && m.actuator_actlimited[i] != 0 {
        (rmin, rmax) = (m.actuator_actrange[2 * i], m.actuator_actrange[2 * i + 1]);
    }
    let mut rng: [Real; 3] = if rmin >= 0.0 {
        [-1.0, rmin, rmax]
    } else if rmax <= 0.0 {
        [rmin, rmax, 1.0]
    } else {
        [rmin, 0.0, rmax]
    };
    if rng[1] - rng[0] < MINVAL {
        rng[0] = rng[1] - MINVAL;
    }
    if rng[2] - rng[1] < MINVAL {
        rng[2] = rng[1] + MINVAL;
    }
    let value = if activation && m.actuator_dyntype[i] != 0 {
        d.act[(m.actuator_actadr[i] + m.actuator_actnum[i] - 1) as usize]
    } else {
        d.ctrl[i]
    };
    let act = clip(value, rng[0], rng[2]);
    let (amin, amean, amax): (f32, f32, f32) = if act <= rng[1] {
        let amin = ((rng[1] - act) / MINVAL.max(rng[1] - rng[0])) as f32;
        (amin, 1.0 - amin, 0.0)
    } else {
        let amax = ((act - rng[1]) / MINVAL.max(rng[2] - rng[1])) as f32;
        (0.0, 1.0 - amax, amax)
    };
    let c = &m.vis.rgba;
    core::array::from_fn(|k| {
        amin * c.actuatornegative[k] + amean * c.actuator[k] + amax * c.actuatorpositive[k]
    })
}

/// `mju_clip`: `x` limited to `[lo, hi]`, NaN kept.
fn clip(x: Real, lo: Real, hi: Real) -> Real {
    if x < lo {
        lo
    } else if x > hi {
        hi
    } else {
        x
    }
}

/// A joint actuator as an arrow along a slide or hinge axis, a sphere or box at a ball or free
/// joint; a site actuator as its site inflated by 5%.
fn joint_or_site(
    m: &Model,
    d: &mut Data,
    scn: &mut Scene,
    (i, j): (usize, usize),
    scl: f32,
    rgba: &[f32; 4],
    label: bool,
) -> bool {
    let Some(start) = start_geom(d, scn, OBJ_ACTUATOR, i, CAT_DECOR) else {
        return false;
    };
    let mut g = if m.actuator_trntype[i] == TRN_SITE {
        let size = [
            m.site_size[3 * j] * 1.05,
            m.site_size[3 * j + 1] * 1.05,
            m.site_size[3 * j + 2] * 1.05,
        ];
        init_geom(
            m.site_type[j],
            Some(&size),
            Some(&d.site_xpos[3 * j..]),
            Some(&d.site_xmat[9 * j..]),
            Some(&start.rgba),
        )
    } else if m.jnt_type[j] == JNT_HINGE || m.jnt_type[j] == JNT_SLIDE {
        let length = Real::from(m.vis.scale.actuatorlength * scl);
        let width = Real::from(m.vis.scale.actuatorwidth * scl);
        let from = to3(&d.xanchor[3 * j..]);
        let axis = to3(&d.xaxis[3 * j..]);
        let to = [
            from[0] + axis[0] * length,
            from[1] + axis[1] * length,
            from[2] + axis[2] * length,
        ];
        let mut g = start.clone();
        let ty = if m.jnt_type[j] == JNT_SLIDE {
            GEOM_ARROW
        } else {
            GEOM_ARROW1
        };
        let _ = connector(&mut g, ty, width, &from, &to);
        g
    } else {
        let size = [Real::from(m.vis.scale.jointlength * scl) * 0.33; 3];
        let ty = if m.jnt_type[j] == JNT_BALL {
            GEOM_SPHERE
        } else {
            GEOM_BOX
        };
        let body = m.jnt_bodyid[j] as usize;
        init_geom(
            ty,
            Some(&size),
            Some(&d.xanchor[3 * j..]),
            Some(&to9(&d.xmat[9 * body..])),
            Some(&start.rgba),
        )
    };
    g.take_slot(&start);
    g.rgba = *rgba;
    if label {
        g.label = super::labels::make_label(m, OBJ_ACTUATOR, i);
    }
    scn.geoms.push(g);
    true
}

/// A body actuator as the body's primitive geoms inflated by 5%.
fn body_geoms(
    m: &Model,
    d: &mut Data,
    scn: &mut Scene,
    i: usize,
    body: usize,
    rgba: &[f32; 4],
) -> bool {
    let adr = m.body_geomadr[body].max(0) as usize;
    for k in adr..adr + m.body_geomnum[body] as usize {
        let ty = m.geom_type[k];
        if matches!(ty, GEOM_PLANE | GEOM_HFIELD | GEOM_MESH | GEOM_SDF) {
            continue;
        }
        let Some(start) = start_geom(d, scn, OBJ_ACTUATOR, i, CAT_DECOR) else {
            return false;
        };
        let size = [
            m.geom_size[3 * k] * 1.05,
            m.geom_size[3 * k + 1] * 1.05,
            m.geom_size[3 * k + 2] * 1.05,
        ];
        let mut g = init_geom(
            ty,
            Some(&size),
            Some(&d.geom_xpos[3 * k..]),
            Some(&d.geom_xmat[9 * k..]),
            Some(&start.rgba),
        );
        g.take_slot(&start);
        g.rgba = *rgba;
        scn.geoms.push(g);
    }
    true
}

/// A tendon actuator as its tendon's path, wider by the actuator-tendon ratio.
fn tendon(
    m: &Model,
    d: &mut Data,
    opt: &VisOption,
    scn: &mut Scene,
    i: usize,
    t: usize,
    rgba: &[f32; 4],
) -> bool {
    let (adr, num) = (d.ten_wrapadr[t] as usize, d.ten_wrapnum[t] as usize);
    for k in adr..(adr + num).saturating_sub(1) {
        let (o0, o1) = (d.wrap_obj[k], d.wrap_obj[k + 1]);
        if o0 == -2 || o1 == -2 {
            continue;
        }
        let Some(mut g) = start_geom(d, scn, OBJ_ACTUATOR, i, CAT_DECOR) else {
            return false;
        };
        let mut width = if o0 >= 0 && o1 >= 0 {
            0.5 * m.tendon_width[t]
        } else {
            m.tendon_width[t]
        };
        width *= Real::from(m.vis.map.actuatortendon);
        let (a, b) = (to3(&d.wrap_xpos[3 * k..]), to3(&d.wrap_xpos[3 * k + 3..]));
        let _ = connector(&mut g, GEOM_CAPSULE, width, &a, &b);
        let material = &m.tendon_rgba[4 * t..4 * t + 4];
        set_material(m, &mut g, m.tendon_matid[t], material, &opt.flags);
        g.rgba = *rgba;
        if opt.label == super::label::ACTUATOR && k == adr {
            g.label = super::labels::make_label(m, OBJ_ACTUATOR, i);
        }
        scn.geoms.push(g);
    }
    true
}
