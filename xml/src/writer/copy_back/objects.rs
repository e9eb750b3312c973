//! Copy-back of what lies outside the tree: height fields, materials, contact pairs, equality
//! constraints, custom numeric and tuple data, keyframes.

use mjrs_core::name::name2id;
use mjrs_core::types::{EQ_WELD, OBJ_GEOM};
use mjrs_core::Model;

use super::{changed, check_count, copy_one, copy_row, error, same};
use crate::error::XmlError;
use crate::spec::*;

/// Height fields given by their elevation (not by a file): the model's data, normalized, in
/// the spec's order (the bottom row first).
pub(super) fn hfields(spec: &mut Spec, a: &Model, b: &Model) -> Result<(), XmlError> {
    if same(&a.hfield_data, &b.hfield_data) {
        return Ok(());
    }
    check_count("height fields", spec.hfields.len(), a.sizes().nhfield)?;
    for (i, h) in spec.hfields.iter_mut().enumerate() {
        let adr = a.hfield_adr[i] as usize;
        let n = (a.hfield_nrow[i] * a.hfield_ncol[i]) as usize;
        let (old, new) = (&a.hfield_data[adr..adr + n], &b.hfield_data[adr..adr + n]);
        if !h.userdata.is_empty() && !same(old, new) {
            h.userdata = new.to_vec();
        }
    }
    Ok(())
}

pub(super) fn materials(spec: &mut Spec, a: &Model, b: &Model) -> Result<(), XmlError> {
    let any = !same(&a.mat_texrepeat, &b.mat_texrepeat)
        || !same(&a.mat_emission, &b.mat_emission)
        || !same(&a.mat_specular, &b.mat_specular)
        || !same(&a.mat_shininess, &b.mat_shininess)
        || !same(&a.mat_reflectance, &b.mat_reflectance)
        || !same(&a.mat_rgba, &b.mat_rgba);
    if !any {
        return Ok(());
    }
    // discardvisual drops materials only visual geoms use
    check_count("materials", spec.materials.len(), a.sizes().nmat)?;
    for (i, m) in spec.materials.iter_mut().enumerate() {
        copy_row(&mut m.texrepeat, &a.mat_texrepeat, &b.mat_texrepeat, i);
        copy_one(&mut m.emission, &a.mat_emission, &b.mat_emission, i);
        copy_one(&mut m.specular, &a.mat_specular, &b.mat_specular, i);
        copy_one(&mut m.shininess, &a.mat_shininess, &b.mat_shininess, i);
        copy_one(
            &mut m.reflectance,
            &a.mat_reflectance,
            &b.mat_reflectance,
            i,
        );
        copy_row(&mut m.rgba, &a.mat_rgba, &b.mat_rgba, i);
    }
    Ok(())
}

/// Contact pairs. The compiler sorts them by body signature (stably); each spec pair is the
/// first model pair of its two geoms not taken by an earlier one.
pub(super) fn pairs(spec: &mut Spec, a: &Model, b: &Model) -> Result<(), XmlError> {
    let any = !same(&a.pair_solref, &b.pair_solref)
        || !same(&a.pair_solreffriction, &b.pair_solreffriction)
        || !same(&a.pair_solimp, &b.pair_solimp)
        || !same(&a.pair_margin, &b.pair_margin)
        || !same(&a.pair_gap, &b.pair_gap)
        || !same(&a.pair_friction, &b.pair_friction);
    if !any {
        return Ok(());
    }
    check_count("contact pairs", spec.pairs.len(), a.sizes().npair)?;
    let mut taken = vec![false; spec.pairs.len()];
    for p in spec.pairs.iter_mut() {
        let g1 = name2id(a, OBJ_GEOM, &p.geomname1).map(|g| g as i32);
        let g2 = name2id(a, OBJ_GEOM, &p.geomname2).map(|g| g as i32);
        let geoms_of = |i: usize| {
            let (m1, m2) = (Some(a.pair_geom1[i]), Some(a.pair_geom2[i]));
            (m1, m2) == (g1, g2) || (m1, m2) == (g2, g1)
        };
        let Some(i) = (0..taken.len()).find(|&i| !taken[i] && geoms_of(i)) else {
            return Err(error(&format!(
                "mj_saveLastXML: no model pair of geoms '{}' and '{}'",
                p.geomname1, p.geomname2
            )));
        };
        taken[i] = true;
        copy_row(&mut p.solref, &a.pair_solref, &b.pair_solref, i);
        copy_row(
            &mut p.solreffriction,
            &a.pair_solreffriction,
            &b.pair_solreffriction,
            i,
        );
        copy_row(&mut p.solimp, &a.pair_solimp, &b.pair_solimp, i);
        copy_one(&mut p.margin, &a.pair_margin, &b.pair_margin, i);
        copy_one(&mut p.gap, &a.pair_gap, &b.pair_gap, i);
        copy_row(&mut p.friction, &a.pair_friction, &b.pair_friction, i);
    }
    Ok(())
}

/// Equality constraints. A weld's relative pose left out is computed from the initial pose
/// (`mj_setConst`): MuJoCo saves the computed one, so it is saved once that pose changed.
pub(super) fn equalities(spec: &mut Spec, a: &Model, b: &Model) -> Result<(), XmlError> {
    let pose = !same(&a.qpos0, &b.qpos0)
        || !same(&a.body_pos, &b.body_pos)
        || !same(&a.body_quat, &b.body_quat);
    let any = !same(&a.eq_data, &b.eq_data)
        || !same(&a.eq_solref, &b.eq_solref)
        || !same(&a.eq_solimp, &b.eq_solimp);
    if !any && !pose {
        return Ok(());
    }
    check_count("equality constraints", spec.equalities.len(), a.sizes().neq)?;
    for (i, q) in spec.equalities.iter_mut().enumerate() {
        if pose && q.etype == EQ_WELD {
            q.data = super::row(&b.eq_data, i);
        }
        copy_row(&mut q.data, &a.eq_data, &b.eq_data, i);
        copy_row(&mut q.solref, &a.eq_solref, &b.eq_solref, i);
        copy_row(&mut q.solimp, &a.eq_solimp, &b.eq_solimp, i);
    }
    Ok(())
}

/// Numeric data (all `size` values once one changed) and the tuples' parameters.
pub(super) fn custom(spec: &mut Spec, a: &Model, b: &Model) -> Result<(), XmlError> {
    if same(&a.numeric_data, &b.numeric_data) && same(&a.tuple_objprm, &b.tuple_objprm) {
        return Ok(());
    }
    check_count("numeric fields", spec.numerics.len(), a.sizes().nnumeric)?;
    for (i, x) in spec.numerics.iter_mut().enumerate() {
        let adr = a.numeric_adr[i] as usize;
        let n = a.numeric_size[i] as usize;
        if !same(&a.numeric_data[adr..adr + n], &b.numeric_data[adr..adr + n]) {
            x.data = b.numeric_data[adr..adr + n].to_vec();
        }
    }
    check_count("tuples", spec.tuples.len(), a.sizes().ntuple)?;
    for (i, t) in spec.tuples.iter_mut().enumerate() {
        let adr = a.tuple_adr[i] as usize;
        let n = a.tuple_size[i] as usize;
        t.objprm.resize(n.max(t.objprm.len()), 0.0);
        for j in 0..n {
            copy_one(&mut t.objprm[j], &a.tuple_objprm, &b.tuple_objprm, adr + j);
        }
    }
    Ok(())
}

/// Keyframes: a vector is saved whole when it changed, or when the spec leaves it out and
/// the value it stands for (`qpos0`, the mocap bodies' poses) changed, since MuJoCo keeps the
/// key's values, not the new defaults.
pub(super) fn keys(spec: &mut Spec, a: &Model, b: &Model) {
    let z = *a.sizes();
    let (nq, nv, na, nu, nmocap) = (z.nq, z.nv, z.na, z.nu, z.nmocap);
    let qpos0 = !same(&a.qpos0, &b.qpos0);
    let mocap = !same(&a.body_pos, &b.body_pos) || !same(&a.body_quat, &b.body_quat);
    for i in 0..z.nkey {
        if spec.keys.len() <= i {
            if !key_changed(a, b, i) && !qpos0 && !mocap {
                continue;
            }
            // a key only `size/nkey` asks for
            spec.keys.resize(i + 1, Key::default());
        }
        let k = &mut spec.keys[i];
        copy_one(&mut k.time, &a.key_time, &b.key_time, i);
        let vector = |v: &mut Vec<f64>, old: &[f64], new: &[f64], n: usize, default: bool| {
            if n > 0 && (changed(old, new, i, n) || (v.is_empty() && default)) {
                *v = new[i * n..(i + 1) * n].to_vec();
            }
        };
        vector(&mut k.qpos, &a.key_qpos, &b.key_qpos, nq, qpos0);
        vector(&mut k.qvel, &a.key_qvel, &b.key_qvel, nv, false);
        vector(&mut k.act, &a.key_act, &b.key_act, na, false);
        vector(&mut k.mpos, &a.key_mpos, &b.key_mpos, 3 * nmocap, mocap);
        vector(&mut k.mquat, &a.key_mquat, &b.key_mquat, 4 * nmocap, mocap);
        vector(&mut k.ctrl, &a.key_ctrl, &b.key_ctrl, nu, false);
    }
}

fn key_changed(a: &Model, b: &Model, i: usize) -> bool {
    let z = a.sizes();
    changed(&a.key_time, &b.key_time, i, 1)
        || changed(&a.key_qpos, &b.key_qpos, i, z.nq)
        || changed(&a.key_qvel, &b.key_qvel, i, z.nv)
        || changed(&a.key_act, &b.key_act, i, z.na)
        || changed(&a.key_mpos, &b.key_mpos, i, 3 * z.nmocap)
        || changed(&a.key_mquat, &b.key_mquat, i, 4 * z.nmocap)
        || changed(&a.key_ctrl, &b.key_ctrl, i, z.nu)
}
