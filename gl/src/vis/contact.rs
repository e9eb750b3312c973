//! Contacts in the scene (MuJoCo's `addContactGeom`): a flat cylinder at each contact point
//! along its normal, coloured by whether the contact is active or only within the gap, and an
//! arrow for the contact force (or two, normal and friction, when split).

use super::geom::{add_axes, connector, island_color, n2f, start_geom};
use super::{flag, Scene, VisOption, CAT_DECOR};
use mjrs_core::math::vec::norm3;
use mjrs_core::support::contact_force;
use mjrs_core::types::{GEOM_ARROW, GEOM_ARROW2, GEOM_CYLINDER, OBJ_GEOM, OBJ_UNKNOWN};
use mjrs_core::{Data, Model, Real};

/// Adds the contact points and forces the options ask for.
pub(super) fn add_contacts(m: &Model, d: &mut Data, opt: &VisOption, scn: &mut Scene) {
    let flags = &opt.flags;
    let frames = opt.frame == super::frame::CONTACT;
    if flags[flag::CONTACTPOINT] == 0 && flags[flag::CONTACTFORCE] == 0 && !frames {
        return;
    }
    let scl = m.stat.meansize;
    for i in 0..d.ncon {
        let con = d.arena.arrays().contact[i];
        // rows of the frame reordered so that the normal is the z axis, then transposed
        let f = &con.frame;
        let mat = [f[3], f[6], f[0], f[4], f[7], f[1], f[5], f[8], f[2]];
        if flags[flag::CONTACTPOINT] != 0 {
            let Some(mut g) = start_geom(d, scn, OBJ_UNKNOWN, i, CAT_DECOR) else {
                return;
            };
            g.type_ = GEOM_CYLINDER;
            let width = (Real::from(m.vis.scale.contactwidth) * scl) as f32;
            g.size = [
                width,
                width,
                (Real::from(m.vis.scale.contactheight) * scl) as f32,
            ];
            g.pos = n2f(&con.pos);
            g.mat = n2f(&mat);
            g.rgba = if opt.flags[flag::ISLAND] != 0 && d.nisland != 0 && con.efc_address >= 0 {
                let a = d.arena.arrays();
                let island = a.efc_island[con.efc_address as usize] as usize;
                island_color(a.island_dofind[a.island_dofadr[island] as usize])
            } else if con.efc_address >= 0 {
                m.vis.rgba.contactpoint
            } else {
                m.vis.rgba.contactgap
            };
            if opt.label == super::label::CONTACTPOINT {
                let name = |k: usize| {
                    let g = con.geom[k];
                    match usize::try_from(g)
                        .ok()
                        .and_then(|g| mjrs_core::name::id2name(m, OBJ_GEOM, g))
                    {
                        Some(n) => n.to_string(),
                        None => format!("g{g}"),
                    }
                };
                g.label = super::labels::truncate(format!("{} | {}", name(0), name(1)));
            }
            scn.geoms.push(g);
        }
        if frames {
            // half the size of body frames
            let length = Real::from(m.vis.scale.framelength) * scl / 2.0;
            let width = Real::from(m.vis.scale.framewidth) * scl / 2.0;
            if !add_axes(d, scn, OBJ_UNKNOWN, i, &con.pos, &mat, length, width) {
                return;
            }
        }
        if con.efc_address < 0 || flags[flag::CONTACTFORCE] == 0 {
            continue;
        }
        if !add_force_arrows(m, d, opt, scn, i, &con) {
            return;
        }
    }
}

/// The force arrows of contact `i`; `false` when the scene is full.
fn add_force_arrows(
    m: &Model,
    d: &mut Data,
    opt: &VisOption,
    scn: &mut Scene,
    i: usize,
    con: &mjrs_core::data::Contact,
) -> bool {
    let f = &con.frame; // rows: normal, tangent 1, tangent 2
    let confrc = contact_force(m, d, i);
    let mut frc = [0.0; 3];
    let n = (con.dim.clamp(0, 3)) as usize;
    frc[..n].copy_from_slice(&confrc[..n]);
    if norm3(&frc) < mjrs_core::real::MINVAL {
        return true;
    }
    let split = opt.flags[flag::CONTACTSPLIT] != 0 && con.dim > 1;
    let scale = Real::from(m.vis.map.force) / m.stat.meanmass;
    let body = |k: usize| {
        let g = con.geom[k];
        if g >= 0 {
            m.geom_bodyid[g as usize]
        } else {
            m.nbody as i32 + con.flex[k]
        }
    };
    let (b0, b1) = (body(0), body(1));
    let parts: &[usize] = if split { &[1, 2] } else { &[0] };
    for &j in parts {
        // the combined, normal or friction force in world coordinates (frame columns)
        let mut vec: [Real; 3] = match j {
            0 => core::array::from_fn(|r| f[r] * frc[0] + f[3 + r] * frc[1] + f[6 + r] * frc[2]),
            1 => core::array::from_fn(|r| f[r] * frc[0]),
            _ => core::array::from_fn(|r| f[3 + r] * frc[1] + f[6 + r] * frc[2]),
        };
        for v in &mut vec {
            *v *= scale;
        }
        // the arrow points towards the body with the higher id
        if b0 > b1 {
            for v in &mut vec {
                *v *= -1.0;
            }
        }
        let Some(mut g) = start_geom(d, scn, OBJ_UNKNOWN, i, CAT_DECOR) else {
            return false;
        };
        let to = [
            con.pos[0] + vec[0],
            con.pos[1] + vec[1],
            con.pos[2] + vec[2],
        ];
        let type_ = if b0 > 0 && b1 > 0 && !split {
            GEOM_ARROW2
        } else {
            GEOM_ARROW
        };
        let width = Real::from(m.vis.scale.forcewidth) * m.stat.meansize;
        let _ = connector(&mut g, type_, width, &con.pos, &to);
        g.rgba = if j == 2 {
            m.vis.rgba.contactfriction
        } else {
            m.vis.rgba.contactforce
        };
        if opt.label == super::label::CONTACTFORCE && j == parts[0] {
            g.label = super::labels::printf("%-.3g", norm3(&frc));
        }
        scn.geoms.push(g);
    }
    true
}
