//! The model's own geoms and sites (the middle of MuJoCo's `mjv_addGeoms`): each with its
//! material or island colour, its label and, when the options ask, its frame. Meshes point at
//! their convex hull when hulls are shown, and infinite planes follow the viewer.

use super::geom::{add_axes, body_category, frame_size, group, init_geom, island_color, n2f};
use super::geom::{set_material, start_geom, to3, to9};
use super::labels::make_label;
use super::{flag, frame, label, Perturb, Scene, VisGeom, VisOption, CAT_DECOR};
use mjrs_core::math::misc::round;
use mjrs_core::math::vec::dot3;
use mjrs_core::types::*;
use mjrs_core::{Data, Model, Real};

/// Grid lines of an infinite plane (`mjMAXPLANEGRID`).
const MAXPLANEGRID: Real = 200.0;

/// The model's geoms of the shown groups and categories, with their frames when asked;
/// `false` when the scene is full.
pub(super) fn add_model_geoms(
    m: &Model,
    d: &mut Data,
    opt: &VisOption,
    pert: &Perturb,
    catmask: i32,
    scn: &mut Scene,
) -> bool {
    let glow = m.vis.global.glow;
    let selected = |body: i32| pert.select > 0 && pert.select == body;
    let (frame_length, frame_width) = frame_size(m);
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
            return false;
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
                let plugin_rgba = scn.plugin_rgba.get(i).copied().flatten();
                let rgba = match &plugin_rgba {
                    Some(rgba) => &rgba[..],
                    None => &m.geom_rgba[4 * i..4 * i + 4],
                };
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
        if opt.label == label::GEOM {
            g.label = make_label(m, OBJ_GEOM, i);
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
        if catmask & CAT_DECOR != 0 && opt.frame == frame::GEOM {
            let (pos, mat) = (to3(&d.geom_xpos[3 * i..]), to9(&d.geom_xmat[9 * i..]));
            if !add_axes(
                d,
                scn,
                OBJ_UNKNOWN,
                i,
                &pos,
                &mat,
                frame_length,
                frame_width,
            ) {
                return false;
            }
        }
    }
    true
}

/// The model's sites of the shown groups and categories, with their frames when asked;
/// `false` when the scene is full.
pub(super) fn add_sites(
    m: &Model,
    d: &mut Data,
    opt: &VisOption,
    pert: &Perturb,
    catmask: i32,
    scn: &mut Scene,
) -> bool {
    let glow = m.vis.global.glow;
    let selected = |body: i32| pert.select > 0 && pert.select == body;
    let (frame_length, frame_width) = frame_size(m);
    for i in 0..m.nsite {
        let category = body_category(m, m.site_bodyid[i] as usize);
        if category & catmask == 0 || opt.sitegroup[group(m.site_group[i])] == 0 {
            continue;
        }
        let Some(start) = start_geom(d, scn, OBJ_SITE, i, category) else {
            return false;
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
        if opt.label == label::SITE {
            g.label = make_label(m, OBJ_SITE, i);
        }
        scn.geoms.push(g);
        if catmask & CAT_DECOR != 0 && opt.frame == frame::SITE {
            let (pos, mat) = (to3(&d.site_xpos[3 * i..]), to9(&d.site_xmat[9 * i..]));
            if !add_axes(
                d,
                scn,
                OBJ_UNKNOWN,
                i,
                &pos,
                &mat,
                frame_length,
                frame_width,
            ) {
                return false;
            }
        }
    }
    true
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
