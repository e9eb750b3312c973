//! Text labels of scene geoms (MuJoCo's `makeLabel` and the label-only geoms): an object's
//! name, or its type and id, and the numbers MuJoCo prints for contacts and selections.

use super::geom::{body_category, start_geom};
use super::{label, Perturb, Scene, VisOption, CAT_DECOR};
use mjrs_core::print::FloatFormat;
use mjrs_core::types::{GEOM_LABEL, OBJ_BODY, OBJ_UNKNOWN};
use mjrs_core::{Data, Model, Real};

/// Longest label MuJoCo keeps (its `label[100]`, less the terminator).
const MAXLABEL: usize = 99;

/// The label of object `id` of type `objtype`: its name, else "type id", else the id.
pub(super) fn make_label(m: &Model, objtype: i32, id: usize) -> String {
    let text = match (
        mjrs_core::name::id2name(m, objtype, id),
        mjrs_core::name::type2str(objtype),
    ) {
        (Some(name), _) => name.to_string(),
        (None, Some(ty)) => format!("{ty} {id}"),
        (None, None) => id.to_string(),
    };
    truncate(text)
}

/// At most [`MAXLABEL`] bytes, cut at a character boundary.
pub(super) fn truncate(mut text: String) -> String {
    if text.len() > MAXLABEL {
        let mut end = MAXLABEL;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
    }
    text
}

/// `x` as C's printf prints it with `format` (such as `%-.3g`).
pub(super) fn printf(format: &str, x: Real) -> String {
    let mut s = String::new();
    if let Ok(f) = FloatFormat::parse(format) {
        let _ = f.write(&mut s, x);
    }
    s
}

/// Label-only geoms at the bodies (all of them, or the selected one) when inertia boxes,
/// which carry body labels otherwise, are not shown; `false` when the scene is full.
pub(super) fn add_body_labels(
    m: &Model,
    d: &mut Data,
    opt: &VisOption,
    pert: &Perturb,
    catmask: i32,
    scn: &mut Scene,
) -> bool {
    let wanted = opt.label == label::SELECTION || opt.label == label::BODY;
    if catmask & CAT_DECOR == 0 || !wanted || opt.flags[super::flag::INERTIA] != 0 {
        return true;
    }
    for i in 1..m.nbody {
        if !(opt.label == label::BODY || pert.select == i as i32)
            || body_category(m, i) & !catmask != 0
        {
            continue;
        }
        let Some(mut g) = start_geom(d, scn, OBJ_UNKNOWN, i, CAT_DECOR) else {
            return false;
        };
        g.type_ = GEOM_LABEL;
        g.pos = core::array::from_fn(|k| d.xpos[3 * i + k] as f32);
        g.mat = core::array::from_fn(|k| d.xmat[9 * i + k] as f32);
        g.label = make_label(m, OBJ_BODY, i);
        scn.geoms.push(g);
    }
    true
}

/// Label-only geoms with the island id at the bodies that belong to an island; `false` when
/// the scene is full.
pub(super) fn add_island_labels(
    m: &Model,
    d: &mut Data,
    opt: &VisOption,
    catmask: i32,
    scn: &mut Scene,
) -> bool {
    if catmask & CAT_DECOR == 0 || opt.label != label::ISLAND || d.nisland == 0 {
        return true;
    }
    for i in 1..m.nbody {
        let weld = m.body_weldid[i] as usize;
        if m.body_dofnum[weld] == 0 {
            continue;
        }
        let island = d.arena.arrays().dof_island[m.body_dofadr[weld] as usize];
        if island < 0 {
            continue;
        }
        let Some(mut g) = start_geom(d, scn, OBJ_UNKNOWN, i, CAT_DECOR) else {
            return false;
        };
        g.type_ = GEOM_LABEL;
        g.pos = core::array::from_fn(|k| d.xipos[3 * i + k] as f32);
        g.mat = core::array::from_fn(|k| d.ximat[9 * i + k] as f32);
        g.label = island.to_string();
        scn.geoms.push(g);
    }
    true
}
