//! Skins (MuJoCo's skin geoms in `mjv_addGeoms` and `mjv_updateActiveSkin`): one geom per
//! shown skin, and the skinned vertex positions and normals in the scene, each vertex the
//! weighted sum of its bones' poses relative to their bind poses.

use super::geom::{group, init_geom, set_material, start_geom, to3, to4};
use super::{flag, label, Perturb, Scene, VisOption, CAT_DYNAMIC};
use mjrs_core::math::mat::rot_vec_mat;
use mjrs_core::math::quat::{mul_quat, neg_quat, quat2mat};
use mjrs_core::math::vec::cross;
use mjrs_core::real::MINVAL;
use mjrs_core::types::{GEOM_SKIN, OBJ_SKIN};
use mjrs_core::{Data, Model, Real};

/// The skin geoms of the shown groups; `false` when the scene is full.
pub(super) fn add_skins(
    m: &Model,
    d: &mut Data,
    opt: &VisOption,
    pert: &Perturb,
    catmask: i32,
    scn: &mut Scene,
) -> bool {
    if opt.flags[flag::SKIN] == 0 || catmask & CAT_DYNAMIC == 0 {
        return true;
    }
    for i in 0..m.nskin {
        if opt.skingroup[group(m.skin_group[i])] == 0 {
            continue;
        }
        let Some(start) = start_geom(d, scn, OBJ_SKIN, i, CAT_DYNAMIC) else {
            return false;
        };
        let bone_body = m.skin_bonebodyid[m.skin_boneadr[i] as usize] as usize;
        let mut g = init_geom(GEOM_SKIN, None, Some(&d.xpos[3 * bone_body..]), None, None);
        g.take_slot(&start);
        set_material(
            m,
            &mut g,
            m.skin_matid[i],
            &m.skin_rgba[4 * i..4 * i + 4],
            &opt.flags,
        );
        if pert.skinselect == i as i32 {
            g.emission += m.vis.global.glow;
        }
        if m.skin_texcoordadr[i] >= 0 {
            g.texcoord = 1;
        }
        if g.rgba[3] == 0.0 {
            continue;
        }
        if opt.label == label::SKIN {
            g.label = super::labels::make_label(m, OBJ_SKIN, i);
        }
        scn.geoms.push(g);
    }
    true
}

/// Recomputes the vertices and normals of the shown skins (`mjv_updateActiveSkin`); hidden
/// skins are zeroed.
pub fn update_active_skin(m: &Model, d: &Data, opt: &VisOption, scn: &mut Scene) {
    let n = 3 * m.nskinvert;
    scn.skinvert.resize(n, 0.0);
    scn.skinnormal.resize(n, 0.0);
    for i in 0..m.nskin {
        let (vadr, vnum) = (m.skin_vertadr[i] as usize, m.skin_vertnum[i] as usize);
        scn.skinvert[3 * vadr..3 * (vadr + vnum)].fill(0.0);
        scn.skinnormal[3 * vadr..3 * (vadr + vnum)].fill(0.0);
        if opt.skingroup[group(m.skin_group[i])] == 0 {
            continue;
        }
        pose_vertices(m, d, i, &mut scn.skinvert);
        vertex_normals(m, i, &scn.skinvert, &mut scn.skinnormal);
        let inflate = m.skin_inflate[i];
        if inflate != 0.0 {
            for k in 3 * vadr..3 * (vadr + vnum) {
                scn.skinvert[k] += inflate * scn.skinnormal[k];
            }
        }
    }
}

/// Accumulates each bone's weighted transform of its vertices from the bind pose.
fn pose_vertices(m: &Model, d: &Data, skin: usize, vert: &mut [f32]) {
    let vadr = m.skin_vertadr[skin] as usize;
    let first = m.skin_boneadr[skin] as usize;
    for j in first..first + m.skin_bonenum[skin] as usize {
        let bindpos: [Real; 3] =
            core::array::from_fn(|k| Real::from(m.skin_bonebindpos[3 * j + k]));
        let bindquat: [Real; 4] =
            core::array::from_fn(|k| Real::from(m.skin_bonebindquat[4 * j + k]));
        let body = m.skin_bonebodyid[j] as usize;
        let xquat = to4(&d.xquat[4 * body..]);
        let rotate = quat2mat(&mul_quat(&xquat, &neg_quat(&bindquat)));
        let moved = rot_vec_mat(&bindpos, &rotate);
        let xpos = to3(&d.xpos[3 * body..]);
        let translate = [xpos[0] - moved[0], xpos[1] - moved[1], xpos[2] - moved[2]];
        let vfirst = m.skin_bonevertadr[j] as usize;
        for k in vfirst..vfirst + m.skin_bonevertnum[j] as usize {
            let v = vadr + m.skin_bonevertid[k] as usize;
            let weight = m.skin_bonevertweight[k];
            let pos: [Real; 3] = core::array::from_fn(|c| Real::from(m.skin_vert[3 * v + c]));
            let mut p = rot_vec_mat(&pos, &rotate);
            for c in 0..3 {
                p[c] += translate[c];
                vert[3 * v + c] += weight * p[c] as f32;
            }
        }
    }
}

/// Area-weighted vertex normals from the faces, normalized.
fn vertex_normals(m: &Model, skin: usize, vert: &[f32], normal: &mut [f32]) {
    let (vadr, vnum) = (m.skin_vertadr[skin] as usize, m.skin_vertnum[skin] as usize);
    let fadr = m.skin_faceadr[skin] as usize;
    for f in fadr..fadr + m.skin_facenum[skin] as usize {
        let v: [usize; 3] = core::array::from_fn(|r| vadr + m.skin_face[3 * f + r] as usize);
        let edge = |a: usize| -> [Real; 3] {
            core::array::from_fn(|r| Real::from(vert[3 * a + r] - vert[3 * v[0] + r]))
        };
        let nrm = cross(&edge(v[1]), &edge(v[2]));
        for &vid in &v {
            for t in 0..3 {
                normal[3 * vid + t] = (Real::from(normal[3 * vid + t]) + nrm[t]) as f32;
            }
        }
    }
    for k in vadr..vadr + vnum {
        let n = &mut normal[3 * k..3 * k + 3];
        let s = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
        let scl = (1.0 / MINVAL.max(Real::from(s))) as f32;
        for x in n.iter_mut() {
            *x *= scl;
        }
    }
}
